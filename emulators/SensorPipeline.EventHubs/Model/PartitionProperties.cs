namespace SensorPipeline.EventHubs;

/// <summary>A snapshot of one partition, as the Event Hubs client's <c>PartitionProperties</c>.</summary>
/// <param name="Hub">The event hub.</param>
/// <param name="PartitionId">The partition id, "0" … PartitionCount-1.</param>
/// <param name="BeginningSequenceNumber">The oldest retained event's sequence number (the next one when empty).</param>
/// <param name="LastEnqueuedSequenceNumber">The newest acknowledged event's sequence number, -1 when none was ever appended.</param>
/// <param name="LastEnqueuedOffset">The newest event's offset, -1 when none.</param>
/// <param name="LastEnqueuedTime">The newest event's enqueued time, <see cref="DateTimeOffset.MinValue"/> when none.</param>
/// <param name="IsEmpty">True when no retained event exists.</param>
/// <param name="SizeBytes">Bytes on disk in the partition's segment files.</param>
/// <param name="SegmentCount">Segment files of the partition (retention deletes whole segments).</param>
public sealed record PartitionProperties(
    string Hub,
    string PartitionId,
    long BeginningSequenceNumber,
    long LastEnqueuedSequenceNumber,
    long LastEnqueuedOffset,
    DateTimeOffset LastEnqueuedTime,
    bool IsEmpty,
    long SizeBytes,
    int SegmentCount);
