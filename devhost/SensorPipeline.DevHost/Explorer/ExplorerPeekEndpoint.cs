using System.Globalization;
using System.Text.Json;
using Microsoft.Extensions.Options;
using SensorPipeline.EventHubs;

namespace SensorPipeline.DevHost.Explorer;

/// <summary><c>GET /explorer/api/hubs/{hub}/partitions/{partition}/events?count=N&amp;from=|offset=|time=</c>: a bounded
/// peek (<see cref="BoundedPeek"/>), each event with its system properties, application properties and body decoded by
/// <see cref="EventBodyDecoder"/>; the answer says which bound ended it and where the next peek goes on.</summary>
public static class ExplorerPeekEndpoint
{
    public static async Task ReadAsync(HttpContext context, string hub, string partition, EventHubsNamespace hubs, BoundedPeek peek, IOptions<ExplorerOptions> options)
    {
        ArgumentNullException.ThrowIfNull(context);
        ArgumentNullException.ThrowIfNull(hubs);
        ArgumentNullException.ThrowIfNull(peek);
        ArgumentNullException.ThrowIfNull(options);
        var limits = options.Value;
        var countText = context.Request.Query["count"].ToString();
        var count = 10;
        if (countText.Length > 0 && (!int.TryParse(countText, NumberStyles.None, CultureInfo.InvariantCulture, out count) || count < 1))
        {
            await ExplorerResults.ProblemAsync(context, StatusCodes.Status400BadRequest, $"'count' must be from 1 to {limits.MaxPeekEvents}.");
            return;
        }

        PeekResult result;
        try
        {
            var (from, error) = await PeekPosition.ResolveAsync(context.Request.Query, hubs, hub, partition, context.RequestAborted);
            if (error is not null)
            {
                await ExplorerResults.ProblemAsync(context, StatusCodes.Status400BadRequest, error);
                return;
            }

            result = await peek.PeekAsync((next, max, ct) => hubs.ReadAsync(hub, partition, next, 0, max, TimeSpan.Zero, ct), from, count, limits, context.RequestAborted);
        }
        catch (Exception e) when (e is EventHubNotFoundException or PartitionNotFoundException)
        {
            await ExplorerResults.ProblemAsync(context, StatusCodes.Status404NotFound, e.Message);
            return;
        }

        await ExplorerResults.JsonAsync(context, writer => Write(writer, hub, partition, result, limits));
    }

    private static void Write(Utf8JsonWriter writer, string hub, string partition, PeekResult result, ExplorerOptions limits)
    {
        writer.WriteStartObject();
        writer.WriteString("hub", hub);
        writer.WriteString("partitionId", partition);
        writer.WriteString("stoppedBy", result.StoppedBy.ToString().ToLowerInvariant());
        writer.WriteNumber("nextSequenceNumber", result.NextSequenceNumber);
        writer.WriteNumber("bytes", result.Bytes);
        writer.WriteStartObject("bounds");
        writer.WriteNumber("maxEvents", limits.MaxPeekEvents);
        writer.WriteNumber("maxBytes", limits.MaxPeekBytes);
        writer.WriteNumber("maxSeconds", limits.MaxTime.TotalSeconds);
        writer.WriteEndObject();
        writer.WriteStartArray("events");
        foreach (var e in result.Events)
        {
            writer.WriteStartObject();
            writer.WriteStartObject("systemProperties");
            writer.WriteNumber("sequenceNumber", e.SequenceNumber);
            writer.WriteNumber("offset", e.Offset);
            writer.WriteString("enqueuedTime", e.EnqueuedTime);
            writer.WriteString("partitionKey", e.PartitionKey);
            writer.WriteEndObject();
            writer.WriteStartObject("properties");
            foreach (var (name, value) in e.Properties)
            {
                writer.WriteString(name, value is byte[] bytes ? Convert.ToBase64String(bytes) : Convert.ToString(value, CultureInfo.InvariantCulture));
            }

            writer.WriteEndObject();
            writer.WriteStartObject("body");
            EventBodyDecoder.Write(writer, e.Body.Span);
            writer.WriteEndObject();
            writer.WriteEndObject();
        }

        writer.WriteEndArray();
        writer.WriteEndObject();
    }
}
