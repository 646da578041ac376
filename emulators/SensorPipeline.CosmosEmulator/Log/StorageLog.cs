namespace SensorPipeline.CosmosEmulator.Log;

/// <summary>The store's log messages, source-generated (EventIds 5000-5049).</summary>
internal static partial class StorageLog
{
    [LoggerMessage(5001, LogLevel.Information, "Store {File} recovered: {Records} record(s), {Bytes} bytes")]
    public static partial void Recovered(ILogger logger, string file, long records, long bytes);

    [LoggerMessage(5002, LogLevel.Warning, "Store {File}: torn tail truncated at byte {ValidLength} ({BytesCut} bytes cut), past the durable mark; these writes were never acknowledged")]
    public static partial void TornTailTruncated(ILogger logger, string file, long validLength, long bytesCut);

    [LoggerMessage(5003, LogLevel.Information, "Store {File} compacted from {Before} to {After} bytes")]
    public static partial void Compacted(ILogger logger, string file, long before, long after);

    [LoggerMessage(5004, LogLevel.Error, "Store {File}: a failed write could not be undone; the store refuses writes until restart (recovery then truncates any partial record)")]
    public static partial void LogFaulted(ILogger logger, string file, Exception exception);

    [LoggerMessage(5005, LogLevel.Warning, "Store {File}: a write of {Records} record(s) failed and was undone; nothing of it was acknowledged or made visible, and the next write tries again")]
    public static partial void WriteFailed(ILogger logger, string file, int records, Exception exception);

    [LoggerMessage(5006, LogLevel.Warning, "Store {File}: compaction failed and was abandoned (the log is intact); the next attempt waits until the log reaches {RetryAtBytes} bytes")]
    public static partial void CompactionFailed(ILogger logger, string file, long retryAtBytes, Exception exception);

    [LoggerMessage(5007, LogLevel.Warning, "Store {File}: an fsync failed; the data stays pending and the next flush tries again")]
    public static partial void FlushFailed(ILogger logger, string file, Exception exception);

    [LoggerMessage(5008, LogLevel.Warning, "Store {File}: the durable mark could not be written; the older mark stays, and recovery can tell a torn write from damage only before it")]
    public static partial void MarkFailed(ILogger logger, string file, Exception exception);
}
