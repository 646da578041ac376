using System.Buffers;
using System.Globalization;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;

namespace SensorPipeline.EventHubs.Http;

/// <summary>The REST send API: <c>POST /{hub}/messages</c>, <c>/{hub}/partitions/{id}/messages</c>,
/// <c>/{hub}/publishers/{name}/messages</c> (the publisher name is the partition key). Every rejection happens before
/// the append, so a rejected request changes nothing; a 503 (the storage failed) acknowledged nothing either.</summary>
internal static class SendEndpoint
{
    public const string BatchContentType = "application/vnd.microsoft.servicebus.json";

    /// <summary>A batch's JSON may be larger than its events (escapes, field names); the 1 MiB limit applies to the events.</summary>
    private const int MaxBatchRequestBytes = 4 * EventLogOptions.MaxEventSizeBytes;

    public enum Target
    {
        Hub,
        Partition,
        Publisher,
    }

    public static RequestDelegate Handler(Target target) => context => SendAsync(context, target);

    private static async Task SendAsync(HttpContext context, Target target)
    {
        if (Unauthorized(context) is { } denied)
        {
            await Problem.WriteAsync(context, StatusCodes.Status401Unauthorized, "Unauthorized", denied);
            return;
        }

        try
        {
            var eventHubs = context.RequestServices.GetRequiredService<EventHubsNamespace>();
            var (hub, partitionId, publisher) = Resolve(context.Request, target, eventHubs);
            var isBatch = context.Request.ContentType is { } type && type.StartsWith(BatchContentType, StringComparison.OrdinalIgnoreCase);
            var limit = isBatch ? MaxBatchRequestBytes : EventLogOptions.MaxEventSizeBytes;
            using var body = await PooledBody.ReadAsync(context.Request, limit, context.RequestAborted);
            if (body is null)
            {
                await Problem.WriteAsync(context, StatusCodes.Status413PayloadTooLarge, "Request Entity Too Large",
                    $"The {(isBatch ? "batch request" : "event body")} is over {limit} bytes.");
                return;
            }

            var result = await AppendAsync(context, eventHubs, hub, partitionId, publisher, isBatch, body.Memory);
            eventHubs.Counters.AppendedOverRest((int)(result.LastSequenceNumber - result.FirstSequenceNumber + 1));
            WriteCreated(context.Response, result);
        }
        catch (Exception e) when (ErrorFor(e) is { } error)
        {
            if (error.RetryAfter is { } retryAfter)
            {
                context.Response.Headers.RetryAfter = ((int)retryAfter.TotalSeconds).ToString(CultureInfo.InvariantCulture);
            }

            await Problem.WriteAsync(context, error.Status, error.Title, error.Detail);
        }
    }

    /// <summary>The SAS check (null when the request may send): anonymous only when allowed and no token is sent.</summary>
    private static string? Unauthorized(HttpContext context)
    {
        var services = context.RequestServices;
        var sas = services.GetRequiredService<SasVerifier>();
        var authorization = context.Request.Headers.Authorization.ToString();
        return sas.Options.AllowAnonymous && authorization.Length == 0
            ? null
            : sas.Check(authorization, context.Request.Path.Value!.TrimStart('/'), services.GetRequiredService<TimeProvider>().GetUtcNow());
    }

    /// <summary>Hub, partition and publisher from the route; an unknown hub or partition throws (404) before the body is read.</summary>
    private static (string Hub, string? PartitionId, string? Publisher) Resolve(HttpRequest request, Target target, EventHubsNamespace eventHubs)
    {
        var hub = (string)request.RouteValues["hub"]!;
        eventHubs.GetHubDescription(hub);
        switch (target)
        {
            case Target.Partition:
                var partitionId = (string)request.RouteValues["partitionId"]!;
                eventHubs.GetPartitionProperties(hub, partitionId);
                return (hub, partitionId, null);
            case Target.Publisher:
                return (hub, null, Uri.UnescapeDataString((string)request.RouteValues["publisher"]!));
            default:
                return (hub, null, null);
        }
    }

    /// <summary>Parses the events and appends them; returns once they are durable per the configured policy — the
    /// acknowledgement.</summary>
    private static async Task<AppendResult> AppendAsync(
        HttpContext context, EventHubsNamespace eventHubs, string hub, string? partitionId, string? publisher, bool isBatch, ReadOnlyMemory<byte> body)
    {
        if (!isBatch)
        {
            var key = publisher ?? HeaderProperties.PartitionKey(context.Request);
            return await eventHubs.AppendAsync(hub, partitionId, [new EventToAppend(body, key, HeaderProperties.Read(context.Request.Headers))], context.RequestAborted);
        }

        var arena = ArrayPool<byte>.Shared.Rent(Math.Max(1, body.Length));
        try
        {
            return await eventHubs.AppendAsync(hub, partitionId, ParseBatch(body, arena, publisher), context.RequestAborted);
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(arena);
        }
    }

    /// <summary>A batch goes to one partition, so its events share one partition key (or none); a publisher route
    /// gives every event the publisher's name as key.</summary>
    private static List<EventToAppend> ParseBatch(ReadOnlyMemory<byte> body, byte[] arena, string? publisher)
    {
        var parsed = BatchParser.Parse(body, arena);
        var key = publisher ?? parsed[0].PartitionKey;
        for (var i = 0; i < parsed.Count; i++)
        {
            if (publisher is not null)
            {
                parsed[i] = parsed[i] with { PartitionKey = publisher };
            }
            else if (!string.Equals(parsed[i].PartitionKey, key, StringComparison.Ordinal))
            {
                throw new BatchFormatException($"event {i} has partition key '{parsed[i].PartitionKey}' but event 0 has '{key}': a batch goes to one partition, so all its events need the same key (or none)");
            }
        }

        return parsed;
    }

    private static void WriteCreated(HttpResponse response, AppendResult result)
    {
        response.StatusCode = StatusCodes.Status201Created;
        response.Headers["X-Partition-Id"] = result.PartitionId;
        response.Headers["X-First-Sequence-Number"] = result.FirstSequenceNumber.ToString(CultureInfo.InvariantCulture);
        response.Headers["X-Last-Sequence-Number"] = result.LastSequenceNumber.ToString(CultureInfo.InvariantCulture);
    }

    private sealed record Error(int Status, string Title, string Detail, TimeSpan? RetryAfter = null);

    /// <summary>The answer for each refusal; null for anything else (a bug: a 500 from the framework).</summary>
    private static Error? ErrorFor(Exception e) => e switch
    {
        EventHubNotFoundException or PartitionNotFoundException => new(StatusCodes.Status404NotFound, "Not Found", e.Message),
        EventTooLargeException => new(StatusCodes.Status413PayloadTooLarge, "Request Entity Too Large", e.Message),
        BatchFormatException => new(StatusCodes.Status400BadRequest, "Bad Request", "Malformed request: " + e.Message + "."),
        ArgumentException => new(StatusCodes.Status400BadRequest, "Bad Request", e.Message),

        // As Event Hubs answers a server-busy: the client retries after the pause; nothing of the request was stored.
        PartitionUnavailableException => new(StatusCodes.Status503ServiceUnavailable, "Service Unavailable", e.Message, PartitionUnavailableException.RetryAfter),
        _ => null,
    };
}
