namespace SensorPipeline.Functions;

/// <summary>The telemetry part of the handler's log messages (event ids 900–909).</summary>
internal static partial class FunctionsLog
{
    [LoggerMessage(EventId = 900, EventName = "TelemetryOn", Level = LogLevel.Information,
        Message = "Pre-aggregated metrics on: aggregates cut and sent every {IntervalSeconds} s")]
    public static partial void TelemetryOn(ILogger logger, double intervalSeconds);
}
