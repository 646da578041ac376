namespace SensorPipeline.Core.Readings;

/// <summary>Where a reading entered the pipeline: its ingestion event's partition, sequence number and enqueued time.</summary>
/// <param name="PartitionId">Ingestion-hub partition id (a decimal string).</param>
/// <param name="SequenceNumber">The event's sequence number within that partition.</param>
/// <param name="EnqueuedTimeUnixMs">When the ingestion hub enqueued it, Unix milliseconds UTC.</param>
public readonly record struct SourcePosition(string PartitionId, long SequenceNumber, long EnqueuedTimeUnixMs)
{
    /// <summary>The enqueued time as an instant.</summary>
    public DateTimeOffset EnqueuedTime => DateTimeOffset.FromUnixTimeMilliseconds(EnqueuedTimeUnixMs);
}
