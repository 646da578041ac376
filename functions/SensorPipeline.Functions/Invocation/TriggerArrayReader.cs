using System.Buffers;
using System.Text.Json;

namespace SensorPipeline.Functions.Invocation;

/// <summary>
/// Reads the trigger's array text (<c>["&lt;base64&gt;",…]</c>) as it is unescaped from the JSON string the host wraps
/// it in, piece by piece: each element is decoded as soon as it is complete and its text dropped, so the buffer holds at
/// most one element (the largest event's base64) plus one piece, never the whole array.
/// </summary>
internal sealed class TriggerArrayReader(DecodedEvents events, string what) : IDisposable
{
    private byte[] _buffer = ArrayPool<byte>.Shared.Rent(64 * 1024);
    private int _start;
    private int _end;
    private JsonReaderState _state;
    private bool _opened;
    private bool _closed;

    /// <summary>Room for at least <paramref name="sizeHint"/> more bytes: moves the unread text to the front, grows only when that is not enough.</summary>
    public Span<byte> GetSpan(int sizeHint)
    {
        if (_buffer.Length - _end < sizeHint)
        {
            var unread = _end - _start;
            var target = unread + sizeHint <= _buffer.Length
                ? _buffer
                : ArrayPool<byte>.Shared.Rent(Math.Max(unread + sizeHint, _buffer.Length * 2));
            _buffer.AsSpan(_start, unread).CopyTo(target);
            if (!ReferenceEquals(target, _buffer))
            {
                ArrayPool<byte>.Shared.Return(_buffer);
                _buffer = target;
            }

            _start = 0;
            _end = unread;
        }

        return _buffer.AsSpan(_end);
    }

    /// <summary>Takes <paramref name="count"/> bytes written into <see cref="GetSpan"/> and decodes every element now complete.</summary>
    public void Advance(int count)
    {
        _end += count;
        Read(isFinalBlock: false);
    }

    /// <summary>The wrapping string has ended: the array must be complete.</summary>
    public void Complete()
    {
        Read(isFinalBlock: true);
        if (!_closed)
        {
            throw new InvalidInvocationException($"The request is not well-formed JSON of the custom-handler shape: {what} ends inside its array.");
        }
    }

    public void Dispose()
    {
        var buffer = Interlocked.Exchange(ref _buffer, []);
        if (buffer.Length > 0)
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    private void Read(bool isFinalBlock)
    {
        if (_closed)
        {
            return; // as before: text after the array's end is not looked at
        }

        var reader = new Utf8JsonReader(_buffer.AsSpan(_start, _end - _start), isFinalBlock, _state);
        while (reader.Read())
        {
            if (!_opened)
            {
                if (reader.TokenType != JsonTokenType.StartArray)
                {
                    throw new InvalidInvocationException($"{what} is {reader.TokenType}, expected {JsonTokenType.StartArray}.");
                }

                _opened = true;
            }
            else if (reader.TokenType == JsonTokenType.EndArray)
            {
                _closed = true;
                break;
            }
            else
            {
                events.Add(ref reader);
            }
        }

        _start += (int)reader.BytesConsumed;
        _state = reader.CurrentState;
    }
}
