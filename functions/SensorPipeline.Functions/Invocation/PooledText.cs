using System.Buffers;
using System.Text.Json;

namespace SensorPipeline.Functions.Invocation;

/// <summary>A value's JSON text in a pooled buffer: a JSON string's unescaped content, or an array/object's raw text.</summary>
internal struct PooledText : IDisposable
{
    private byte[]? _buffer;
    private int _length;

    public readonly bool HasValue => _buffer is not null;

    public readonly ReadOnlySpan<byte> Span => _buffer.AsSpan(0, _length);

    public static PooledText From(ref Utf8JsonReader reader, ReadOnlySpan<byte> json, string what)
    {
        switch (reader.TokenType)
        {
            case JsonTokenType.String:
            {
                var buffer = ArrayPool<byte>.Shared.Rent(Math.Max(1, reader.ValueSpan.Length));
                return new PooledText { _buffer = buffer, _length = reader.CopyString(buffer) };
            }

            case JsonTokenType.StartArray or JsonTokenType.StartObject:
            {
                var start = (int)reader.TokenStartIndex;
                reader.Skip();
                var raw = json[start..(int)reader.BytesConsumed];
                var buffer = ArrayPool<byte>.Shared.Rent(Math.Max(1, raw.Length));
                raw.CopyTo(buffer);
                return new PooledText { _buffer = buffer, _length = raw.Length };
            }

            default:
                throw new InvalidInvocationException($"{what} is {reader.TokenType}, expected a JSON string holding JSON text or an array.");
        }
    }

    public void Dispose()
    {
        if (_buffer is { } buffer)
        {
            _buffer = null;
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }
}
