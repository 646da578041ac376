using System.Buffers;
using Microsoft.AspNetCore.Http;

namespace SensorPipeline.EventHubs.Http;

/// <summary>A request body read into one pooled buffer; returned to the pool on dispose.</summary>
internal sealed class PooledBody : IDisposable
{
    private byte[] _buffer;

    private PooledBody(byte[] buffer, int length)
    {
        _buffer = buffer;
        Length = length;
    }

    public int Length { get; }

    public ReadOnlyMemory<byte> Memory => _buffer.AsMemory(0, Length);

    /// <summary>Reads the whole body, or returns null as soon as it is over <paramref name="limit"/> bytes.</summary>
    public static async Task<PooledBody?> ReadAsync(HttpRequest request, int limit, CancellationToken cancellationToken)
    {
        if (request.ContentLength > limit)
        {
            return null;
        }

        var buffer = ArrayPool<byte>.Shared.Rent((int)Math.Min(limit + 1L, request.ContentLength ?? 16 * 1024) + 1);
        var length = 0;
        try
        {
            while (true)
            {
                if (length == buffer.Length)
                {
                    var grown = ArrayPool<byte>.Shared.Rent(Math.Min(limit + 1, buffer.Length * 2));
                    buffer.AsSpan(0, length).CopyTo(grown);
                    ArrayPool<byte>.Shared.Return(buffer);
                    buffer = grown;
                }

                var n = await request.Body.ReadAsync(buffer.AsMemory(length), cancellationToken);
                if (n == 0)
                {
                    var body = new PooledBody(buffer, length);
                    buffer = null!;
                    return body;
                }

                length += n;
                if (length > limit)
                {
                    return null;
                }
            }
        }
        finally
        {
            if (buffer is not null)
            {
                ArrayPool<byte>.Shared.Return(buffer);
            }
        }
    }

    public void Dispose()
    {
        if (_buffer.Length > 0)
        {
            ArrayPool<byte>.Shared.Return(_buffer);
            _buffer = [];
        }
    }
}
