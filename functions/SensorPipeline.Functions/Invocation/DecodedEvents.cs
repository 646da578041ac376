using System.Buffers;
using System.Buffers.Text;
using System.Text.Json;

namespace SensorPipeline.Functions.Invocation;

/// <summary>
/// The trigger's event bodies, each base64-decoded into its own pooled buffer as its array element is read, so memory
/// follows the decoded events and no buffer is ever copied to grow. Owned by the parser until handed to the request.
/// </summary>
internal sealed class DecodedEvents(string what) : IDisposable
{
    private readonly List<byte[]> _rented = [];
    private readonly List<ReadOnlyMemory<byte>> _bodies = [];

    public int Count => _bodies.Count;

    public IReadOnlyList<ReadOnlyMemory<byte>> Bodies => _bodies;

    /// <summary>Decodes the reader's current token, which must be a complete base64 string.</summary>
    public void Add(ref Utf8JsonReader reader)
    {
        var index = _bodies.Count;
        if (reader.TokenType != JsonTokenType.String)
        {
            throw new InvalidInvocationException($"{what}[{index}] is {reader.TokenType}, expected a base64 string: set \"dataType\": \"binary\" on the trigger.");
        }

        var encodedLength = reader.HasValueSequence ? (int)reader.ValueSequence.Length : reader.ValueSpan.Length;
        if (encodedLength == 0)
        {
            _bodies.Add(ReadOnlyMemory<byte>.Empty);
            return;
        }

        var buffer = ArrayPool<byte>.Shared.Rent(Base64.GetMaxDecodedFromUtf8Length(encodedLength));
        _rented.Add(buffer);
        var written = Decode(ref reader, buffer, index);
        _bodies.Add(new ReadOnlyMemory<byte>(buffer, 0, written));
    }

    /// <summary>Hands the pooled buffers to the caller (the request returns them); this instance no longer owns them.</summary>
    public IReadOnlyList<byte[]> Release()
    {
        var rented = _rented.ToArray();
        _rented.Clear();
        return rented;
    }

    public void Dispose()
    {
        foreach (var buffer in _rented)
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }

        _rented.Clear();
        _bodies.Clear();
    }

    private int Decode(ref Utf8JsonReader reader, Span<byte> destination, int index)
    {
        OperationStatus status;
        int written;
        if (!reader.ValueIsEscaped && !reader.HasValueSequence)
        {
            status = Base64.DecodeFromUtf8(reader.ValueSpan, destination, out _, out written);
        }
        else
        {
            // Rare: an encoder that escapes '+' or '/' ("\u002B"). Unescape first, then decode.
            var scratch = ArrayPool<byte>.Shared.Rent(reader.HasValueSequence ? (int)reader.ValueSequence.Length : reader.ValueSpan.Length);
            try
            {
                var unescaped = reader.CopyString(scratch);
                status = Base64.DecodeFromUtf8(scratch.AsSpan(0, unescaped), destination, out _, out written);
            }
            finally
            {
                ArrayPool<byte>.Shared.Return(scratch);
            }
        }

        return status == OperationStatus.Done
            ? written
            : throw new InvalidInvocationException($"{what}[{index}] is not valid base64 ({status}).");
    }
}
