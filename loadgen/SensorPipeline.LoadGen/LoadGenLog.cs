using Microsoft.Extensions.Logging;

namespace SensorPipeline.LoadGen;

/// <summary>loadgen's log messages (source-generated; stderr, so stdout keeps the progress and the tables).</summary>
internal static partial class LoadGenLog
{
    [LoggerMessage(EventId = 1, EventName = "SendRetrying", Level = LogLevel.Debug,
        Message = "Send attempt {Attempt} failed (status {StatusCode}); retrying in {DelayMs:F0} ms: {Detail}")]
    public static partial void SendRetrying(ILogger logger, int attempt, int statusCode, double delayMs, string? detail);

    [LoggerMessage(EventId = 2, EventName = "SendRejected", Level = LogLevel.Warning,
        Message = "A {Kind} event of {Readings} readings was rejected permanently after {Attempts} attempt(s): {Detail}")]
    public static partial void SendRejected(ILogger logger, string kind, int readings, int attempts, string? detail);

    [LoggerMessage(EventId = 3, EventName = "SendGaveUp", Level = LogLevel.Error,
        Message = "A {Kind} event of {Readings} readings was not sent: {Attempts} attempts failed transiently; last: {Detail}")]
    public static partial void SendGaveUp(ILogger logger, string kind, int readings, int attempts, string? detail);

    [LoggerMessage(EventId = 4, EventName = "FunctionPaused", Level = LogLevel.Information,
        Message = "Paused function {Function} for {Duration} to build a backlog")]
    public static partial void FunctionPaused(ILogger logger, string function, TimeSpan duration);

    [LoggerMessage(EventId = 5, EventName = "FunctionResumed", Level = LogLevel.Information,
        Message = "Resumed function {Function}")]
    public static partial void FunctionResumed(ILogger logger, string function);

    [LoggerMessage(EventId = 6, EventName = "PauseControlFailed", Level = LogLevel.Error,
        Message = "The pause control {Url} answered {StatusCode}: {Detail}")]
    public static partial void PauseControlFailed(ILogger logger, string url, int statusCode, string detail);

    [LoggerMessage(EventId = 7, EventName = "LedgerWritten", Level = LogLevel.Debug,
        Message = "Ledger written to {Path}: {Events} events acknowledged")]
    public static partial void LedgerWritten(ILogger logger, string path, long events);

    [LoggerMessage(EventId = 8, EventName = "RunCancelled", Level = LogLevel.Warning,
        Message = "Run interrupted: waiting up to {Grace} for {InFlight} in-flight sends before writing the ledger")]
    public static partial void RunCancelled(ILogger logger, TimeSpan grace, int inFlight);

    [LoggerMessage(EventId = 9, EventName = "DeadLettersQueried", Level = LogLevel.Information,
        Message = "Read {Count} dead letters from {Container}")]
    public static partial void DeadLettersQueried(ILogger logger, int count, string container);

    [LoggerMessage(EventId = 10, EventName = "MalformedNotRefused", Level = LogLevel.Error,
        Message = "A malformed send ({Name}) was answered {Status}, not {Expected}: the hub's checks let it through")]
    public static partial void MalformedNotRefused(ILogger logger, string name, int status, string expected);
}
