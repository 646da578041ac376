using System.Buffers;
using System.IO.Compression;
using System.Text.Json;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Logging;
using SensorPipeline.Emulators.Common;

namespace SensorPipeline.ApplicationInsights;

/// <summary>
/// <c>POST /v2/track</c>: what Microsoft.ApplicationInsights 2.23 sends when its connection string's IngestionEndpoint
/// points here: <c>Content-Encoding: gzip</c>, <c>Content-Type: application/x-json-stream</c>, one envelope per line.
/// Answers as the real service does: 200 with <c>{"itemsReceived":n,"itemsAccepted":n,"errors":[]}</c>, 206 with one
/// error per rejected line (index, statusCode 400, message; a line over <c>Telemetry__MaxItemBytes</c> too), 400 when the
/// body itself is unreadable, 413 when too large. A page in the developer's browser is refused before the body is read:
/// 403 for a Host that is not a loopback name (DNS rebinding) or a foreign Origin, 415 for a content type a page can
/// send without a preflight — the SDK sends <c>application/x-json-stream</c>, no Origin and the endpoint's own Host.
/// </summary>
internal static class TrackEndpoint
{
    private static ReadOnlySpan<byte> GzipMagic => [0x1f, 0x8b];

    public static async Task HandleAsync(HttpContext context, TelemetryStore store, IOptions<TelemetryIngestionOptions> options, ILoggerFactory loggers)
    {
        var limits = options.Value;
        var logger = loggers.CreateLogger("SensorPipeline.ApplicationInsights");
        var cancellationToken = context.RequestAborted;
        if (RejectBeforeBody(context.Request, limits) is { } refused)
        {
            await RejectAsync(context, logger, refused.Status, refused.Reason);
            return;
        }

        using var raw = new PooledBuffer();
        if (!await raw.ReadAsync(context.Request.Body, limits.MaxRequestBytes, cancellationToken))
        {
            await RejectAsync(context, logger, StatusCodes.Status413PayloadTooLarge, $"body is over Telemetry__MaxRequestBytes ({limits.MaxRequestBytes})");
            return;
        }

        var compressed = raw.Length;
        var gzip = string.Equals(context.Request.Headers.ContentEncoding, "gzip", StringComparison.OrdinalIgnoreCase) || raw.Memory.Span.StartsWith(GzipMagic);
        using var body = gzip ? new PooledBuffer() : null;
        if (body is not null && await GunzipAsync(raw, body, limits.MaxDecompressedBytes, cancellationToken) is { } unreadable)
        {
            await RejectAsync(context, logger, unreadable.Status, unreadable.Reason);
            return;
        }

        var metrics = new List<ParsedMetric>();
        var errors = new List<(int Index, string Message)>();
        var received = ParseLines((body ?? raw).Memory, limits.MaxItemBytes, metrics, errors);
        if (received == 0)
        {
            await RejectAsync(context, logger, StatusCodes.Status400BadRequest, "the body holds no envelope");
            return;
        }

        store.Add(compressed, (body ?? raw).Length, received, errors.Count, metrics);
        if (errors.Count > 0)
        {
            DevHostTelemetryLog.RejectedItems(logger, errors.Count, received, errors[0].Message);
        }

        await WriteResultAsync(context, errors.Count == 0 ? StatusCodes.Status200OK : StatusCodes.Status206PartialContent, received, errors);
    }

    /// <summary>A page in the developer's browser, a content type a page could send, or a declared length over the limit:
    /// refused before a byte of the body is read.</summary>
    private static (int Status, string Reason)? RejectBeforeBody(HttpRequest request, TelemetryIngestionOptions limits)
    {
        if (AdminRequestGuard.RejectCrossSite(request) is { } crossSite)
        {
            return (StatusCodes.Status403Forbidden, crossSite);
        }

        if (!IsTelemetryContentType(request.ContentType))
        {
            return (StatusCodes.Status415UnsupportedMediaType,
                $"Content-Type '{request.ContentType}' is not application/x-json-stream or application/json");
        }

        if (request.ContentLength > limits.MaxRequestBytes)
        {
            return (StatusCodes.Status413PayloadTooLarge, $"body of {request.ContentLength} bytes is over Telemetry__MaxRequestBytes ({limits.MaxRequestBytes})");
        }

        return null;
    }

    private static async Task<(int Status, string Reason)?> GunzipAsync(PooledBuffer raw, PooledBuffer body, long maxDecompressedBytes, CancellationToken cancellationToken)
    {
        try
        {
            await using var unzip = new GZipStream(raw.AsStream(), CompressionMode.Decompress);
            if (!await body.ReadAsync(unzip, maxDecompressedBytes, cancellationToken))
            {
                return (StatusCodes.Status413PayloadTooLarge, $"decompressed body is over Telemetry__MaxDecompressedBytes ({maxDecompressedBytes})");
            }
        }
        catch (InvalidDataException e)
        {
            return (StatusCodes.Status400BadRequest, "Content-Encoding is gzip but the body is not: " + e.Message);
        }

        return null;
    }

    /// <summary>Parses one envelope a line into <paramref name="metrics"/>, noting each bad line in
    /// <paramref name="errors"/> by its index among the non-blank lines; returns how many there were.</summary>
    private static int ParseLines(ReadOnlyMemory<byte> text, int maxItemBytes, List<ParsedMetric> metrics, List<(int Index, string Message)> errors)
    {
        var received = 0;
        while (!text.IsEmpty)
        {
            var end = text.Span.IndexOf((byte)'\n');
            var line = end < 0 ? text : text[..end];
            text = end < 0 ? default : text[(end + 1)..];
            if (line.Span.Trim(" \r\t"u8).IsEmpty)
            {
                continue;
            }

            if (line.Length > maxItemBytes)
            {
                errors.Add((received, $"the item is {line.Length} bytes; the limit is {maxItemBytes} (Telemetry__MaxItemBytes)"));
            }
            else if (EnvelopeParser.TryParse(line, metrics) is { } error)
            {
                errors.Add((received, error));
            }

            received++;
        }

        return received;
    }

    /// <summary>What the SDK sends; neither is CORS-safelisted, so a cross-site page cannot send it without a preflight.</summary>
    private static bool IsTelemetryContentType(string? contentType) =>
        Microsoft.Net.Http.Headers.MediaTypeHeaderValue.TryParse(contentType, out var type)
        && (type.MediaType.Equals("application/x-json-stream", StringComparison.OrdinalIgnoreCase)
            || type.MediaType.Equals("application/json", StringComparison.OrdinalIgnoreCase));

    private static async Task RejectAsync(HttpContext context, ILogger logger, int status, string reason)
    {
        DevHostTelemetryLog.RejectedBody(logger, reason);
        await WriteResultAsync(context, status, 0, [(0, reason)]);
    }

    private static async Task WriteResultAsync(HttpContext context, int status, int received, List<(int Index, string Message)> errors)
    {
        context.Response.StatusCode = status;
        context.Response.ContentType = "application/json";
        await using var writer = new Utf8JsonWriter(context.Response.BodyWriter);
        writer.WriteStartObject();
        writer.WriteNumber("itemsReceived", received);
        writer.WriteNumber("itemsAccepted", Math.Max(0, received - errors.Count));
        writer.WriteStartArray("errors");
        foreach (var (index, message) in errors)
        {
            writer.WriteStartObject();
            writer.WriteNumber("index", index);
            writer.WriteNumber("statusCode", 400);
            writer.WriteString("message", message);
            writer.WriteEndObject();
        }

        writer.WriteEndArray();
        writer.WriteEndObject();
        await writer.FlushAsync(context.RequestAborted);
    }

    /// <summary>A growable byte buffer from the shared pool, filled from a stream up to a limit.</summary>
    private sealed class PooledBuffer : IDisposable
    {
        private byte[] _buffer = ArrayPool<byte>.Shared.Rent(16 * 1024);

        public int Length { get; private set; }

        public ReadOnlyMemory<byte> Memory => _buffer.AsMemory(0, Length);

        public MemoryStream AsStream() => new MemoryStream(_buffer, 0, Length, writable: false);

        /// <summary>Reads to the end; false (and stops) once more than <paramref name="limit"/> bytes arrive.</summary>
        public async Task<bool> ReadAsync(Stream source, long limit, CancellationToken cancellationToken)
        {
            while (true)
            {
                if (Length == _buffer.Length)
                {
                    var bigger = ArrayPool<byte>.Shared.Rent((int)Math.Min((long)_buffer.Length * 2, Array.MaxLength));
                    _buffer.AsSpan(0, Length).CopyTo(bigger);
                    ArrayPool<byte>.Shared.Return(_buffer);
                    _buffer = bigger;
                }

                var read = await source.ReadAsync(_buffer.AsMemory(Length), cancellationToken);
                if (read == 0)
                {
                    return true;
                }

                Length += read;
                if (Length > limit)
                {
                    return false;
                }
            }
        }

        public void Dispose()
        {
            ArrayPool<byte>.Shared.Return(_buffer);
            _buffer = [];
        }
    }
}
