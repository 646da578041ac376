using System.Text.Json;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;

namespace SensorPipeline.EventHubs.Http;

/// <summary><c>GET /status</c>: the namespace, its hubs and each partition's first/last sequence number and bytes,
/// the namespace's <see cref="EventHubsCounters"/> as <c>counters</c>, then every registered <see cref="IStatusSection"/> (e.g. the local Functions host's <c>functionsHost</c>).</summary>
internal static class StatusEndpoint
{
    public static async Task WriteAsync(HttpContext context)
    {
        var eventHubs = context.RequestServices.GetRequiredService<EventHubsNamespace>();
        context.Response.ContentType = "application/json";
        await using var writer = new Utf8JsonWriter(context.Response.BodyWriter, new JsonWriterOptions { Indented = true });
        writer.WriteStartObject();
        writer.WriteString("namespace", eventHubs.Name);
        writer.WriteString("durability", eventHubs.Options.Durability.ToString());
        writer.WriteString("dataDirectory", eventHubs.DataDirectory);
        writer.WriteBoolean("diskFullInjected", eventHubs.Storage.FailWrites);
        writer.WriteStartArray("hubs");
        foreach (var hub in eventHubs.Hubs)
        {
            WriteHub(writer, eventHubs, hub);
        }

        writer.WriteEndArray();
        writer.WritePropertyName("counters");
        eventHubs.Counters.WriteTo(writer);
        foreach (var section in context.RequestServices.GetServices<IStatusSection>())
        {
            writer.WritePropertyName(section.Name);
            section.WriteValue(writer);
        }

        writer.WriteEndObject();
        await writer.FlushAsync(context.RequestAborted);
    }

    private static void WriteHub(Utf8JsonWriter writer, EventHubsNamespace eventHubs, EventHubDescription hub)
    {
        writer.WriteStartObject();
        writer.WriteString("name", hub.Name);
        writer.WriteNumber("partitionCount", hub.PartitionCount);
        writer.WriteStartArray("consumerGroups");
        foreach (var group in hub.ConsumerGroups)
        {
            writer.WriteStringValue(group);
        }

        writer.WriteEndArray();
        writer.WriteStartArray("partitions");
        foreach (var id in hub.PartitionIds)
        {
            WritePartition(writer, id, eventHubs.GetPartitionProperties(hub.Name, id));
        }

        writer.WriteEndArray();
        writer.WriteEndObject();
    }

    private static void WritePartition(Utf8JsonWriter writer, string id, PartitionProperties p)
    {
        writer.WriteStartObject();
        writer.WriteString("id", id);
        writer.WriteNumber("beginningSequenceNumber", p.BeginningSequenceNumber);
        writer.WriteNumber("lastSequenceNumber", p.LastEnqueuedSequenceNumber);
        writer.WriteNumber("lastOffset", p.LastEnqueuedOffset);
        if (p.LastEnqueuedSequenceNumber >= 0)
        {
            writer.WriteString("lastEnqueuedTime", p.LastEnqueuedTime);
        }
        else
        {
            writer.WriteNull("lastEnqueuedTime");
        }

        writer.WriteBoolean("isEmpty", p.IsEmpty);
        writer.WriteNumber("bytes", p.SizeBytes);
        writer.WriteNumber("segments", p.SegmentCount);
        writer.WriteEndObject();
    }
}
