using System.Text.Json;
using SensorPipeline.EventHubs;
using SensorPipeline.FunctionsHost.Status;

namespace SensorPipeline.DevHost.Explorer;

/// <summary>Every hub, partition and consumer group: the log's own positions from the emulator, and each consumer
/// group's checkpoint, lag and owner from the Functions host's status (<c>/status/functions</c>), which reads them
/// where the host keeps them. A consumer group no function reads shows its partitions without a checkpoint.</summary>
public static class HubsOverview
{
    public static void Write(Utf8JsonWriter writer, EventHubsNamespace hubs, FunctionsHostStatus? status)
    {
        ArgumentNullException.ThrowIfNull(writer);
        ArgumentNullException.ThrowIfNull(hubs);
        writer.WriteStartObject();
        writer.WriteString("namespace", hubs.Name);
        writer.WriteStartArray("hubs");
        foreach (var hub in hubs.Hubs)
        {
            writer.WriteStartObject();
            writer.WriteString("name", hub.Name);
            writer.WriteNumber("partitionCount", hub.PartitionCount);
            writer.WriteStartArray("partitions");
            foreach (var id in hub.PartitionIds)
            {
                WritePartition(writer, hubs.GetPartitionProperties(hub.Name, id));
            }

            writer.WriteEndArray();
            writer.WriteStartArray("consumerGroups");
            foreach (var group in hub.ConsumerGroups)
            {
                WriteConsumerGroup(writer, hub.Name, group, status);
            }

            writer.WriteEndArray();
            writer.WriteEndObject();
        }

        writer.WriteEndArray();
        writer.WriteEndObject();
    }

    private static void WritePartition(Utf8JsonWriter writer, PartitionProperties p)
    {
        writer.WriteStartObject();
        writer.WriteString("id", p.PartitionId);
        writer.WriteNumber("beginningSequenceNumber", p.BeginningSequenceNumber);
        writer.WriteNumber("lastEnqueuedSequenceNumber", p.LastEnqueuedSequenceNumber);
        writer.WriteNumber("lastEnqueuedOffset", p.LastEnqueuedOffset);
        if (!p.IsEmpty)
        {
            writer.WriteString("lastEnqueuedTime", p.LastEnqueuedTime);
        }

        writer.WriteNumber("sizeBytes", p.SizeBytes);
        writer.WriteEndObject();
    }

    private static void WriteConsumerGroup(Utf8JsonWriter writer, string hub, string group, FunctionsHostStatus? status)
    {
        var function = status?.Functions.FirstOrDefault(f =>
            string.Equals(f.EventHubName, hub, StringComparison.OrdinalIgnoreCase) && string.Equals(f.ConsumerGroup, group, StringComparison.OrdinalIgnoreCase));
        writer.WriteStartObject();
        writer.WriteString("name", group);
        writer.WriteString("function", function?.Name);
        writer.WriteStartArray("partitions");
        foreach (var p in function?.Partitions ?? [])
        {
            writer.WriteStartObject();
            writer.WriteString("id", p.PartitionId);
            if (p.CheckpointSequenceNumber is { } checkpoint)
            {
                writer.WriteNumber("checkpointSequenceNumber", checkpoint);
            }

            writer.WriteNumber("lastEnqueuedSequenceNumber", p.LastEnqueuedSequenceNumber);
            writer.WriteNumber("lag", p.Lag);
            writer.WriteString("owner", p.Owner ?? status!.InstanceId ?? "devhost");
            writer.WriteBoolean("stalled", p.Stalled);
            writer.WriteEndObject();
        }

        writer.WriteEndArray();
        writer.WriteEndObject();
    }
}
