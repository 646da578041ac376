namespace SensorPipeline.CosmosEmulator.Log;

/// <summary>What a log record changes in memory. The writer loop applies it once the record is as durable as the mode
/// promises — before the record is acknowledged and before any compaction snapshot — so memory never holds a write the
/// log does not, and a compaction never misses one it does.</summary>
internal interface IRecordEffect
{
    /// <summary>False once a failed write discarded versions this record was checked against: it must not be written.</summary>
    bool IsCurrent { get; }

    /// <summary>Makes the change visible to readers (the record is durable).</summary>
    void Apply();

    /// <summary>The record will never be written. <paramref name="writeFailed"/>: its own write failed, so every version
    /// staged behind it may build on it and is discarded too; otherwise only its own staged versions go.</summary>
    void Discard(bool writeFailed);
}
