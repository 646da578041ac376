namespace SensorPipeline.FunctionsHost.Hubs;

/// <summary>One event hub: name, partition count, consumer group names, and how long events are retained (null when
/// the gateway does not know; the stall detector then judges by checkpoint progress alone).</summary>
public sealed record HubInfo(string Name, int PartitionCount, IReadOnlyList<string> ConsumerGroups, TimeSpan? RetentionPeriod = null)
{
    /// <summary>The partition ids, "0" to PartitionCount - 1, as Event Hubs names them.</summary>
    public IEnumerable<string> PartitionIds => Enumerable.Range(0, PartitionCount).Select(p => p.ToString(System.Globalization.CultureInfo.InvariantCulture));
}

/// <summary>An event read from a partition, with what the trigger's binding data needs.</summary>
public sealed record ReceivedEvent(
    long SequenceNumber,
    long Offset,
    DateTimeOffset EnqueuedTime,
    string? PartitionKey,
    ReadOnlyMemory<byte> Body,
    IReadOnlyDictionary<string, object?> Properties);

/// <summary>A partition's bounds: the oldest retained and the newest sequence number (-1 when never written).</summary>
public sealed record PartitionBounds(long BeginningSequenceNumber, long LastEnqueuedSequenceNumber);

/// <summary>The Event Hubs namespace as the local Functions host needs it. Devhost implements it over the
/// emulator's <c>EventHubsNamespace</c>; the seam keeps this library free of the emulator's storage.</summary>
public interface IEventHubsGateway
{
    /// <summary>The namespace's hubs.</summary>
    IReadOnlyList<HubInfo> Hubs { get; }

    /// <summary>Reads in order from <paramref name="fromSequenceNumber"/>: waits until <paramref name="minEvents"/> are
    /// available or <paramref name="maxWait"/> elapses, returns at most <paramref name="maxEvents"/> (maybe none).</summary>
    ValueTask<IReadOnlyList<ReceivedEvent>> ReadAsync(string hub, string partitionId, long fromSequenceNumber, int minEvents, int maxEvents, TimeSpan maxWait, CancellationToken cancellationToken);

    /// <summary>Appends the bodies as one batch to one partition chosen round-robin, no partition key, no properties:
    /// what an output binding's <c>IAsyncCollector</c> sends. Returns when durable.</summary>
    ValueTask AppendAsync(string hub, IReadOnlyList<ReadOnlyMemory<byte>> bodies, CancellationToken cancellationToken);

    /// <summary>The partition's current bounds.</summary>
    PartitionBounds GetBounds(string hub, string partitionId);
}
