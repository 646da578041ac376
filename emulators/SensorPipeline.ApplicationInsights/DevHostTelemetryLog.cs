using Microsoft.Extensions.Logging;

namespace SensorPipeline.ApplicationInsights;

/// <summary>Every log message of devhost's telemetry endpoint, source-generated.</summary>
internal static partial class DevHostTelemetryLog
{
    [LoggerMessage(EventId = 1, EventName = "RejectedBody", Level = LogLevel.Warning,
        Message = "POST /v2/track rejected: {Reason}")]
    public static partial void RejectedBody(ILogger logger, string reason);

    [LoggerMessage(EventId = 2, EventName = "RejectedItems", Level = LogLevel.Warning,
        Message = "POST /v2/track: {Rejected} of {Received} items rejected; first: {FirstError}")]
    public static partial void RejectedItems(ILogger logger, int rejected, int received, string firstError);

    [LoggerMessage(EventId = 3, EventName = "Evicted", Level = LogLevel.Information,
        Message = "Telemetry store full ({Capacity} metric points or {CapacityBytes} bytes): the oldest are being dropped (Telemetry__MaxMetricPoints, Telemetry__MaxStoredBytes)")]
    public static partial void Evicted(ILogger logger, int capacity, long capacityBytes);
}
