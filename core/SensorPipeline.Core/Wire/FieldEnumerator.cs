namespace SensorPipeline.Core.Wire;

/// <summary>
/// Yields the payload of every length-delimited occurrence of one field number in a message, skipping all other
/// fields: the repeated-message loop that ReadingBatch.readings and ForwardEnvelope.readings share. Stops at the
/// first malformed byte (callers check the framing first).
/// </summary>
public ref struct FieldEnumerator
{
    private readonly int _fieldNumber;
    private ProtoReader _reader;

    public FieldEnumerator(ReadOnlySpan<byte> message, int fieldNumber)
    {
        _reader = new ProtoReader(message);
        _fieldNumber = fieldNumber;
        Current = default;
    }

    public ReadOnlySpan<byte> Current { get; private set; }

    public readonly FieldEnumerator GetEnumerator() => this;

    public bool MoveNext()
    {
        while (!_reader.End)
        {
            if (!_reader.TryReadTag(out var field, out var wire))
            {
                return false;
            }

            if (field == _fieldNumber && wire == WireType.LengthDelimited)
            {
                if (!_reader.TryReadLengthDelimited(out var payload))
                {
                    return false;
                }

                Current = payload;
                return true;
            }

            if (!_reader.TrySkip(wire))
            {
                return false;
            }
        }

        return false;
    }
}
