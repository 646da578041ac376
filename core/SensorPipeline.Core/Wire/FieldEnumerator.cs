namespace SensorPipeline.Core.Wire;

/// <summary>
/// Yields the payload of every length-delimited occurrence of one field number in a message, passing over all other
/// fields: the repeated-message loop that ReadingBatch.readings and ForwardEnvelope.readings share. Stops at the
/// first malformed byte (callers check the framing first).
/// </summary>
public ref struct FieldEnumerator
{
    private readonly int _fieldNumber;
    private ProtoFields _fields;

    public FieldEnumerator(ReadOnlySpan<byte> message, int fieldNumber)
    {
        _fields = new ProtoFields(message);
        _fieldNumber = fieldNumber;
        Current = default;
    }

    public ReadOnlySpan<byte> Current { get; private set; }

    public readonly FieldEnumerator GetEnumerator() => this;

    public bool MoveNext()
    {
        while (_fields.MoveNext(out var number, out var wireType))
        {
            if (number == _fieldNumber && wireType == WireType.LengthDelimited)
            {
                Current = _fields.ReadBytes();
                return !_fields.Malformed;
            }
        }

        return false;
    }
}
