using System.Buffers;
using System.Globalization;
using System.IO.Pipelines;
using SensorPipeline.CosmosEmulator.Documents;

namespace SensorPipeline.CosmosEmulator.Http;

/// <summary>Writes the gateway's answers: the common headers (activity id, charge, session token), JSON bodies, feeds
/// (<c>{"_rid":…,"Documents":[…],"_count":n}</c>) and errors (<c>{"code":"NotFound","message":"…"}</c>).</summary>
internal static class GatewayResponse
{
    private static long _lsn;

    /// <summary>Advances the session token's LSN (every write).</summary>
    public static void Written() => Interlocked.Increment(ref _lsn);

    public static void SetCommonHeaders(HttpContext context, double charge)
    {
        ArgumentNullException.ThrowIfNull(context);
        var headers = context.Response.Headers;
        var activity = context.Request.Headers[CosmosHeaders.ActivityId].ToString();
        headers[CosmosHeaders.ActivityId] = activity.Length > 0 ? activity : Guid.NewGuid().ToString();
        headers[CosmosHeaders.RequestCharge] = charge.ToString("0.##", CultureInfo.InvariantCulture);
        var lsn = Interlocked.Read(ref _lsn).ToString(CultureInfo.InvariantCulture);
        headers[CosmosHeaders.SessionToken] = "0:-1#" + lsn;
        headers["lsn"] = lsn;
        headers["x-ms-gatewayversion"] = "version=2.14.0";
        headers["x-ms-schemaversion"] = "1.19";
    }

    /// <summary>A JSON body (a resource's stored bytes) with its status and charge, and its ETag when given.</summary>
    public static Task JsonAsync(HttpContext context, int status, ReadOnlyMemory<byte> body, double charge, string? etag = null)
    {
        ArgumentNullException.ThrowIfNull(context);
        context.Response.StatusCode = status;
        SetCommonHeaders(context, charge);
        if (etag is not null)
        {
            context.Response.Headers.ETag = etag;
        }

        context.Response.ContentType = "application/json";
        context.Response.ContentLength = body.Length;
        return context.Response.BodyWriter.WriteAsync(body, context.RequestAborted).AsTask();
    }

    /// <summary>A status with no body (204, 304).</summary>
    public static Task EmptyAsync(HttpContext context, int status, double charge, string? etag = null)
    {
        ArgumentNullException.ThrowIfNull(context);
        context.Response.StatusCode = status;
        SetCommonHeaders(context, charge);
        if (etag is not null)
        {
            context.Response.Headers.ETag = etag;
        }

        return Task.CompletedTask;
    }

    /// <summary>A feed page: the items' raw JSON under <paramref name="itemsName"/>.</summary>
    public static async Task FeedAsync(HttpContext context, string rid, string itemsName, IReadOnlyList<byte[]> items, double charge, string? continuation)
    {
        ArgumentNullException.ThrowIfNull(context);
        ArgumentNullException.ThrowIfNull(items);
        context.Response.StatusCode = 200;
        SetCommonHeaders(context, charge);
        context.Response.Headers[CosmosHeaders.ItemCount] = items.Count.ToString(CultureInfo.InvariantCulture);
        if (continuation is not null)
        {
            context.Response.Headers[CosmosHeaders.Continuation] = continuation;
        }

        context.Response.ContentType = "application/json";
        await using (var writer = new Utf8JsonWriter((IBufferWriter<byte>)context.Response.BodyWriter, new JsonWriterOptions { SkipValidation = true }))
        {
            writer.WriteStartObject();
            writer.WriteString("_rid", rid);
            writer.WriteStartArray(itemsName);
            foreach (var item in items)
            {
                writer.WriteRawValue(item, skipInputValidation: true);
            }

            writer.WriteEndArray();
            writer.WriteNumber("_count", items.Count);
            writer.WriteEndObject();
        }

        await context.Response.BodyWriter.FlushAsync(context.RequestAborted);
    }

    /// <summary>The service's error body for <paramref name="error"/>, with its sub-status and, for 429, the retry time.</summary>
    public static Task ErrorAsync(HttpContext context, StoreException error, int retryAfterMs = 0)
    {
        ArgumentNullException.ThrowIfNull(context);
        ArgumentNullException.ThrowIfNull(error);
        return ErrorAsync(context, error.Status, error.Code, error.Message, error.SubStatus, retryAfterMs, error.RequestCharge);
    }

    public static Task ErrorAsync(HttpContext context, int status, string code, string message, int subStatus = 0, int retryAfterMs = 0, double charge = 0)
    {
        ArgumentNullException.ThrowIfNull(context);
        context.Response.StatusCode = status;
        SetCommonHeaders(context, charge);
        if (subStatus != 0)
        {
            context.Response.Headers[CosmosHeaders.SubStatus] = subStatus.ToString(CultureInfo.InvariantCulture);
        }

        if (retryAfterMs > 0)
        {
            context.Response.Headers[CosmosHeaders.RetryAfterMs] = retryAfterMs.ToString(CultureInfo.InvariantCulture);
        }

        context.Response.ContentType = "application/json";
        var body = JsonSerializer.SerializeToUtf8Bytes(new ErrorBody(code, message), GatewayJson.Default.ErrorBody);
        return context.Response.BodyWriter.WriteAsync(body, context.RequestAborted).AsTask();
    }
}

/// <summary>The service's error body.</summary>
internal sealed record ErrorBody(string Code, string Message);
