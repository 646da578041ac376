using System.Globalization;
using System.Text;
using System.Text.Json;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using SensorPipeline.Emulators.Common;

namespace SensorPipeline.EventHubs.Http;

/// <summary><c>GET /{hub}/partitions/{id}/events?from=N&amp;max=M</c>: a devhost-only look at stored events (Event Hubs
/// itself has no REST receive). Read-only and immediate (no wait); each event's body is given as UTF-8 text when it is
/// valid UTF-8 (<c>body</c>) and always as base64 (<c>bodyBase64</c>). Event bodies are data: only a loopback request
/// carrying <c>X-DevHost-Admin: 1</c> may read them (<see cref="AdminRequestGuard"/>; DNS rebinding).</summary>
internal static class PeekEndpoint
{
    private const int MaxEvents = 1000;

    public static async Task ReadAsync(HttpContext context)
    {
        var request = context.Request;
        if (AdminRequestGuard.Reject(request) is { } reason)
        {
            await Problem.WriteAsync(context, StatusCodes.Status403Forbidden, "Forbidden", reason);
            return;
        }

        var hub = (string)request.RouteValues["hub"]!;
        var partitionId = (string)request.RouteValues["partitionId"]!;
        if (!TryQuery(request, "from", 0, long.MaxValue, out var from) || !TryQuery(request, "max", 1, MaxEvents, out var max))
        {
            await Problem.WriteAsync(context, StatusCodes.Status400BadRequest, "Bad Request", $"'from' must be a sequence number ≥ 0 and 'max' from 1 to {MaxEvents}.");
            return;
        }

        IReadOnlyList<StoredEvent> events;
        try
        {
            events = await context.RequestServices.GetRequiredService<EventHubsNamespace>()
                .ReadAsync(hub, partitionId, from, 0, (int)max, TimeSpan.Zero, context.RequestAborted);
        }
        catch (Exception e) when (e is EventHubNotFoundException or PartitionNotFoundException)
        {
            await Problem.WriteAsync(context, StatusCodes.Status404NotFound, "Not Found", e.Message);
            return;
        }

        context.Response.ContentType = "application/json";
        await using var writer = new Utf8JsonWriter(context.Response.BodyWriter);
        writer.WriteStartArray();
        foreach (var e in events)
        {
            writer.WriteStartObject();
            writer.WriteNumber("sequenceNumber", e.SequenceNumber);
            writer.WriteNumber("offset", e.Offset);
            writer.WriteString("enqueuedTime", e.EnqueuedTime);
            writer.WriteString("partitionKey", e.PartitionKey);
            if (System.Text.Unicode.Utf8.IsValid(e.Body.Span))
            {
                writer.WriteString("body", e.Body.Span);
            }

            writer.WriteBase64String("bodyBase64", e.Body.Span);
            writer.WriteStartObject("properties");
            foreach (var (name, value) in e.Properties)
            {
                WriteValue(writer, name, value);
            }

            writer.WriteEndObject();
            writer.WriteEndObject();
        }

        writer.WriteEndArray();
        await writer.FlushAsync(context.RequestAborted);
    }

    private static void WriteValue(Utf8JsonWriter writer, string name, object? value)
    {
        switch (value)
        {
            case null: writer.WriteNull(name); break;
            case string s: writer.WriteString(name, s); break;
            case bool b: writer.WriteBoolean(name, b); break;
            case int i: writer.WriteNumber(name, i); break;
            case long l: writer.WriteNumber(name, l); break;
            case double d: writer.WriteNumber(name, d); break;
            case DateTimeOffset t: writer.WriteString(name, t); break;
            case Guid g: writer.WriteString(name, g); break;
            case byte[] bytes: writer.WriteBase64String(name, bytes); break;
            default: writer.WriteString(name, Convert.ToString(value, CultureInfo.InvariantCulture)); break;
        }
    }

    private static bool TryQuery(HttpRequest request, string name, long min, long max, out long value)
    {
        value = min;
        var text = request.Query[name].ToString();
        return text.Length == 0
            || (long.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out value) && value >= min && value <= max);
    }
}
