namespace SensorPipeline.Emulators.Common;

/// <summary>When an append is acknowledged relative to the disk.</summary>
public enum DurabilityMode
{
    /// <summary>fsync before the acknowledgement: an acknowledged event survives a process kill and a power loss.
    /// Concurrent appends to one partition share one fsync (group commit).</summary>
    Always,

    /// <summary>Acknowledge once written to the OS; fsync every flush interval (the log's own options set it).
    /// Survives a process kill; a power loss can lose up to one interval of acknowledged events.</summary>
    Interval,

    /// <summary>Acknowledge once written to the OS page cache, never fsync (the OS writes back on its own).
    /// Survives a process kill (kill -9); a power loss or kernel crash can lose acknowledged events.</summary>
    None,
}
