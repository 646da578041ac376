namespace SensorPipeline.Core.Readings;

/// <summary>Where a reading entered the pipeline: its ingestion event's partition, sequence number and enqueued time.</summary>
/// <param name="PartitionId">Ingestion-hub partition id (a decimal string).</param>
/// <param name="SequenceNumber">The event's sequence number within that partition.</param>
/// <param name="EnqueuedTimeUnixMs">When the ingestion hub enqueued it, Unix milliseconds UTC.</param>
public readonly record struct SourcePosition(string PartitionId, long SequenceNumber, long EnqueuedTimeUnixMs)
{
    /// <summary>The largest enqueued time an instant can hold (9999-12-31T23:59:59.999Z), Unix milliseconds.</summary>
    public const long MaxEnqueuedTimeUnixMs = 253_402_300_799_999;

    /// <summary>
    /// True when <see cref="EnqueuedTimeUnixMs"/> is an instant (0 … <see cref="MaxEnqueuedTimeUnixMs"/>): readers check
    /// this before anything renders <see cref="EnqueuedTime"/>, which throws outside that range.
    /// </summary>
    public bool HasValidEnqueuedTime => EnqueuedTimeUnixMs is >= 0 and <= MaxEnqueuedTimeUnixMs;

    /// <summary>The enqueued time as an instant.</summary>
    public DateTimeOffset EnqueuedTime => DateTimeOffset.FromUnixTimeMilliseconds(EnqueuedTimeUnixMs);
}
