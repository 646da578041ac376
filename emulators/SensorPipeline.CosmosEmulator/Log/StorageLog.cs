namespace SensorPipeline.CosmosEmulator.Log;

/// <summary>The store's log messages, source-generated (EventIds 5000-5049).</summary>
internal static partial class StorageLog
{
    [LoggerMessage(5001, LogLevel.Information, "Store {File} recovered: {Records} record(s), {Bytes} bytes")]
    public static partial void Recovered(ILogger logger, string file, long records, long bytes);

    [LoggerMessage(5002, LogLevel.Warning, "Store {File}: torn tail truncated at byte {ValidLength} ({BytesCut} bytes cut); these writes were never acknowledged")]
    public static partial void TornTailTruncated(ILogger logger, string file, long validLength, long bytesCut);

    [LoggerMessage(5003, LogLevel.Information, "Store {File} compacted from {Before} to {After} bytes")]
    public static partial void Compacted(ILogger logger, string file, long before, long after);

    [LoggerMessage(5004, LogLevel.Error, "Store {File}: a write failed; the store refuses writes until restart (recovery then truncates any partial record)")]
    public static partial void LogFaulted(ILogger logger, string file, Exception exception);
}
