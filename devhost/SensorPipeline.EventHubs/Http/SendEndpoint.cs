using System.Buffers;
using System.Globalization;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;

namespace SensorPipeline.EventHubs.Http;

/// <summary>The REST send API: <c>POST /{hub}/messages</c>, <c>/{hub}/partitions/{id}/messages</c>,
/// <c>/{hub}/publishers/{name}/messages</c> (the publisher name is the partition key). Every rejection happens before
/// the append, so a rejected request changes nothing.</summary>
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
        var request = context.Request;
        var cancellationToken = context.RequestAborted;
        var hub = (string)request.RouteValues["hub"]!;
        var resource = request.Path.Value!.TrimStart('/');
        var services = context.RequestServices;
        var sas = services.GetRequiredService<SasVerifier>();
        var time = services.GetRequiredService<TimeProvider>();
        var authorization = request.Headers.Authorization.ToString();
        if (!(sas.Options.AllowAnonymous && authorization.Length == 0)
            && sas.Check(authorization, resource, time.GetUtcNow()) is { } denied)
        {
            await Problem.WriteAsync(context, StatusCodes.Status401Unauthorized, "Unauthorized", denied);
            return;
        }

        var eventHubs = services.GetRequiredService<EventHubsNamespace>();
        string? partitionId = null;
        string? publisher = null;
        try
        {
            eventHubs.GetHubDescription(hub); // 404 before the body is read
            if (target == Target.Partition)
            {
                partitionId = (string)request.RouteValues["partitionId"]!;
                eventHubs.GetPartitionProperties(hub, partitionId); // 404 before the body is read
            }
            else if (target == Target.Publisher)
            {
                publisher = Uri.UnescapeDataString((string)request.RouteValues["publisher"]!);
            }

            var isBatch = request.ContentType is { } type && type.StartsWith(BatchContentType, StringComparison.OrdinalIgnoreCase);
            using var body = await PooledBody.ReadAsync(request, isBatch ? MaxBatchRequestBytes : EventLogOptions.MaxEventSizeBytes, cancellationToken);
            if (body is null)
            {
                await Problem.WriteAsync(context, StatusCodes.Status413PayloadTooLarge, "Request Entity Too Large",
                    $"The {(isBatch ? "batch request" : "event body")} is over {(isBatch ? MaxBatchRequestBytes : EventLogOptions.MaxEventSizeBytes)} bytes.");
                return;
            }

            byte[]? arena = null;
            try
            {
                IReadOnlyList<EventToAppend> events;
                if (isBatch)
                {
                    arena = ArrayPool<byte>.Shared.Rent(Math.Max(1, body.Length));
                    var parsed = BatchParser.Parse(body.Memory, arena);
                    var key = publisher ?? parsed[0].PartitionKey;
                    for (var i = 0; i < parsed.Count; i++)
                    {
                        if (publisher is null && !string.Equals(parsed[i].PartitionKey, key, StringComparison.Ordinal))
                        {
                            throw new BatchFormatException($"event {i} has partition key '{parsed[i].PartitionKey}' but event 0 has '{key}': a batch goes to one partition, so all its events need the same key (or none)");
                        }

                        if (publisher is not null)
                        {
                            parsed[i] = parsed[i] with { PartitionKey = publisher };
                        }
                    }

                    events = parsed;
                }
                else
                {
                    var key = publisher ?? HeaderProperties.PartitionKey(request);
                    events = [new EventToAppend(body.Memory, key, HeaderProperties.Read(request.Headers))];
                }

                // The append returns once the events are durable per the configured policy: that is the acknowledgement.
                var result = await eventHubs.AppendAsync(hub, partitionId, events, cancellationToken);
                var response = context.Response;
                response.StatusCode = StatusCodes.Status201Created;
                response.Headers["X-Partition-Id"] = result.PartitionId;
                response.Headers["X-First-Sequence-Number"] = result.FirstSequenceNumber.ToString(CultureInfo.InvariantCulture);
                response.Headers["X-Last-Sequence-Number"] = result.LastSequenceNumber.ToString(CultureInfo.InvariantCulture);
            }
            finally
            {
                if (arena is not null)
                {
                    ArrayPool<byte>.Shared.Return(arena);
                }
            }
        }
        catch (EventHubNotFoundException e)
        {
            await Problem.WriteAsync(context, StatusCodes.Status404NotFound, "Not Found", e.Message);
        }
        catch (PartitionNotFoundException e)
        {
            await Problem.WriteAsync(context, StatusCodes.Status404NotFound, "Not Found", e.Message);
        }
        catch (EventTooLargeException e)
        {
            await Problem.WriteAsync(context, StatusCodes.Status413PayloadTooLarge, "Request Entity Too Large", e.Message);
        }
        catch (BatchFormatException e)
        {
            await Problem.WriteAsync(context, StatusCodes.Status400BadRequest, "Bad Request", "Malformed request: " + e.Message + ".");
        }
        catch (ArgumentException e)
        {
            await Problem.WriteAsync(context, StatusCodes.Status400BadRequest, "Bad Request", e.Message);
        }
    }
}
