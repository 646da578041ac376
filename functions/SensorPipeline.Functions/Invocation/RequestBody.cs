using System.Buffers;
using Microsoft.AspNetCore.Http;

namespace SensorPipeline.Functions.Invocation;

/// <summary>
/// Reads a whole request body (the host sends it chunked, without Content-Length) into one pooled buffer,
/// growing by doubling. A Content-Length, when sent, sizes the buffer only up to the cap, so a claimed length
/// never reserves memory the body cannot legally fill; Kestrel's MaxRequestBodySize (<see cref="MaxBytes"/>) bounds it.
/// </summary>
internal sealed class RequestBody : IDisposable
{
    private byte[] _buffer;

    private RequestBody(byte[] buffer, int length)
    {
        _buffer = buffer;
        Length = length;
    }

    public int Length { get; }

    /// <summary>
    /// The largest body accepted for a host whose batches hold <paramref name="maxEventBatchSize"/> events: per event
    /// 8 MB — the body in base64 (4/3 MB) plus its properties and system properties, which share the event's 1 MB and
    /// may each grow up to six-fold as escaped JSON — plus 1 MB for the rest. At host.json's 2 events: 17 MB.
    /// </summary>
    public static long MaxBytes(int maxEventBatchSize) => (maxEventBatchSize * 8L * 1024 * 1024) + (1024 * 1024);

    public ReadOnlySpan<byte> Span => _buffer.AsSpan(0, Length);

    public static async Task<RequestBody> ReadAsync(HttpRequest request, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(request);
        var cap = request.HttpContext.Features.Get<Microsoft.AspNetCore.Http.Features.IHttpMaxRequestBodySizeFeature>()?.MaxRequestBodySize ?? Array.MaxLength;
        var initial = request.ContentLength is { } claimed && claimed <= cap ? claimed : 64 * 1024;
        var buffer = ArrayPool<byte>.Shared.Rent((int)Math.Clamp(initial, 1024, Math.Min(cap, Array.MaxLength)));
        var length = 0;
        try
        {
            while (true)
            {
                if (length == buffer.Length)
                {
                    var larger = ArrayPool<byte>.Shared.Rent((int)Math.Min(buffer.Length * 2L, Array.MaxLength));
                    buffer.AsSpan(0, length).CopyTo(larger);
                    ArrayPool<byte>.Shared.Return(buffer);
                    buffer = larger;
                }

                var read = await request.Body.ReadAsync(buffer.AsMemory(length), cancellationToken);
                if (read == 0)
                {
                    return new RequestBody(buffer, length);
                }

                length += read;
            }
        }
        catch
        {
            ArrayPool<byte>.Shared.Return(buffer);
            throw;
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
}
