using Microsoft.Extensions.Logging;

namespace SensorPipeline.EventHubs;

/// <summary>Every log message of the emulator, source-generated (EventIds 4000-4099).</summary>
internal static partial class EventHubsLog
{
    [LoggerMessage(4001, LogLevel.Information, "Partition {Hub}/{PartitionId} opened: {SegmentCount} segment(s), sequence numbers {Beginning} to {Last}")]
    public static partial void PartitionOpened(ILogger logger, string hub, string partitionId, int segmentCount, long beginning, long last);

    [LoggerMessage(4002, LogLevel.Warning, "Partition {Hub}/{PartitionId}: torn tail in {File} truncated at byte {ValidLength} ({BytesCut} bytes cut); these events were never acknowledged")]
    public static partial void TornTailTruncated(ILogger logger, string hub, string partitionId, string file, long validLength, long bytesCut);

    [LoggerMessage(4003, LogLevel.Warning, "Partition {Hub}/{PartitionId}: index {File} did not match its segment and was rebuilt")]
    public static partial void IndexRebuilt(ILogger logger, string hub, string partitionId, string file);

    [LoggerMessage(4004, LogLevel.Information, "Partition {Hub}/{PartitionId}: removed an empty segment {File} left by a crash during a segment roll")]
    public static partial void EmptySegmentRemoved(ILogger logger, string hub, string partitionId, string file);

    [LoggerMessage(4005, LogLevel.Debug, "Partition {Hub}/{PartitionId}: new segment from sequence number {BaseSequence}")]
    public static partial void SegmentRolled(ILogger logger, string hub, string partitionId, long baseSequence);

    [LoggerMessage(4006, LogLevel.Information, "Partition {Hub}/{PartitionId}: retention deleted {SegmentCount} segment(s); the partition now begins at sequence number {Beginning}")]
    public static partial void SegmentsDeleted(ILogger logger, string hub, string partitionId, int segmentCount, long beginning);

    [LoggerMessage(4007, LogLevel.Critical, "Partition {Hub}/{PartitionId}: a failed write could not be undone; the partition refuses appends until restart (recovery then truncates any partial write)")]
    public static partial void PartitionFaulted(ILogger logger, string hub, string partitionId, Exception exception);

    [LoggerMessage(4008, LogLevel.Error, "Partition {Hub}/{PartitionId}: a write of {Requests} batch(es) failed; they were refused (503) and the partition rolled back to its last acknowledged event")]
    public static partial void WriteFailed(ILogger logger, string hub, string partitionId, int requests, Exception exception);

    [LoggerMessage(4009, LogLevel.Error, "Partition {Hub}/{PartitionId}: fsync failed; the data stays pending and the next flush tries again")]
    public static partial void FlushFailed(ILogger logger, string hub, string partitionId, Exception exception);

    [LoggerMessage(4010, LogLevel.Error, "Partition {Hub}/{PartitionId}: retention could not delete a segment; it tries again at the next pass")]
    public static partial void RetentionFailed(ILogger logger, string hub, string partitionId, Exception exception);

    [LoggerMessage(4011, LogLevel.Warning, "Partition {Hub}/{PartitionId}: the durable mark could not be written; the older mark stays, and recovery can tell a torn write from damage only before it")]
    public static partial void MarkFailed(ILogger logger, string hub, string partitionId, Exception exception);
}
