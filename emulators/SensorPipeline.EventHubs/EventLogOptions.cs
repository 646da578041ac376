using SensorPipeline.Emulators.Common;

namespace SensorPipeline.EventHubs;

/// <summary>How partition logs are stored. Bound from the configuration section <c>EventHubs</c>
/// (e.g. <c>EventHubs__Durability=None</c>); validated at start-up by <see cref="EventLogOptionsValidator"/>.</summary>
public sealed class EventLogOptions
{
    /// <summary>The configuration section these options bind from.</summary>
    public const string SectionName = "EventHubs";

    /// <summary>The Event Hubs (Standard tier) limit on one event and on one batch: 1 MiB.</summary>
    public const int MaxEventSizeBytes = 1024 * 1024;

    /// <summary>When an append is acknowledged relative to fsync. Default <see cref="DurabilityMode.Always"/>
    /// (an acknowledged event is never lost, even on power loss).</summary>
    public DurabilityMode Durability { get; set; } = DurabilityMode.Always;

    /// <summary>With <see cref="DurabilityMode.Interval"/>: the longest time written data waits for an fsync.
    /// Default 00:00:00.100 (100 ms); from 1 ms to 1 minute.</summary>
    public TimeSpan FlushInterval { get; set; } = TimeSpan.FromMilliseconds(100);

    /// <summary>A segment file is closed and a new one started once it reaches this size, in bytes.
    /// Default 67,108,864 (64 MiB); from 64 KiB to 1 GiB; an event larger than a segment gets a segment of its own. Retention deletes whole segments.</summary>
    public long SegmentSizeBytes { get; set; } = 64L * 1024 * 1024;

    /// <summary>Segments whose newest event is older than this are deleted (never the segment being written).
    /// Default 7.00:00:00 (7 days, the Event Hubs Standard maximum); at least 1 second.</summary>
    public TimeSpan RetentionPeriod { get; set; } = TimeSpan.FromDays(7);

    /// <summary>The oldest segments of a partition are deleted while the partition is larger than this, in bytes
    /// (never the segment being written). Default 10,737,418,240 (10 GiB); at least 2 × <see cref="SegmentSizeBytes"/>.</summary>
    public long RetentionMaxBytesPerPartition { get; set; } = 10L * 1024 * 1024 * 1024;

    /// <summary>Recently written data each partition keeps in memory so readers near the head never touch the disk,
    /// in bytes, used in whole 4 MiB chunks (rounded up). Default 16,777,216 (16 MiB); 0 turns the cache off; at most 1 GiB.</summary>
    public long CacheBytesPerPartition { get; set; } = 16L * 1024 * 1024;

    /// <summary>How often retention runs besides at each segment roll. Default 00:01:00 (1 minute); at least 1 second.</summary>
    public TimeSpan RetentionCheckInterval { get; set; } = TimeSpan.FromMinutes(1);
}
