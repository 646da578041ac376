namespace SensorPipeline.CosmosEmulator.Http;

/// <summary>The gateway's log messages, source-generated (EventIds 5050-5099).</summary>
internal static partial class GatewayLog
{
    [LoggerMessage(5051, LogLevel.Error, "A write failed in the store; answered 503")]
    public static partial void WriteFailed(ILogger logger, Exception exception);

    [LoggerMessage(5052, LogLevel.Warning, "Fault injected: {Status} for {Seconds} s (writes only: {WritesOnly}, probability {Probability})")]
    public static partial void FaultInjected(ILogger logger, int status, double seconds, bool writesOnly, double probability);

    [LoggerMessage(5053, LogLevel.Information, "Container {Database}/{Container}: budget set to {RequestUnitsPerSecond} RU/s")]
    public static partial void BudgetSet(ILogger logger, string database, string container, double requestUnitsPerSecond);

    [LoggerMessage(5054, LogLevel.Warning, "Injected full disk: {Full} (every log write fails as ENOSPC while true)")]
    public static partial void DiskFullSet(ILogger logger, bool full);
}
