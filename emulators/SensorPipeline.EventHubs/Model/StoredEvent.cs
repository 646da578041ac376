namespace SensorPipeline.EventHubs;

/// <summary>An event as stored in a partition. <see cref="Body"/> may share memory with other events of the
/// same read (zero copy); it is never overwritten, so it stays valid as long as it is referenced.</summary>
/// <param name="SequenceNumber">Position in the partition, from 0, without gaps.</param>
/// <param name="Offset">Byte position of the event in the partition's log (increasing, not contiguous).</param>
/// <param name="EnqueuedTime">When the namespace accepted the event (its <see cref="TimeProvider"/>), UTC.</param>
/// <param name="PartitionKey">The partition key the sender gave, or null.</param>
/// <param name="Body">The body bytes.</param>
/// <param name="Properties">Application properties (decoded on first access).</param>
/// <param name="PartitionId">The partition the event is stored in.</param>
public sealed record StoredEvent(
    long SequenceNumber,
    long Offset,
    DateTimeOffset EnqueuedTime,
    string? PartitionKey,
    ReadOnlyMemory<byte> Body,
    IReadOnlyDictionary<string, object?> Properties,
    string PartitionId)
{
    /// <summary>The AMQP envelope stored with the event (<see cref="EventToAppend.AmqpEnvelope"/>); empty for REST sends.
    /// May share memory with other events of the same read.</summary>
    public ReadOnlyMemory<byte> AmqpEnvelope { get; init; }
}
