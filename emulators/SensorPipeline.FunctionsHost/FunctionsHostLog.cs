using Microsoft.Extensions.Logging;

namespace SensorPipeline.FunctionsHost;

/// <summary>Every log line of the local Functions host, source-generated.</summary>
internal static partial class FunctionsHostLog
{
    [LoggerMessage(EventId = 5001, EventName = "HandlerStarting", Level = LogLevel.Information, Message = "Starting custom handler {Executable} {Arguments} on port {Port} (attempt {Attempt})")]
    public static partial void HandlerStarting(ILogger logger, string executable, string arguments, int port, int attempt);

    [LoggerMessage(EventId = 5002, EventName = "HandlerReady", Level = LogLevel.Information, Message = "Custom handler pid {Pid} is listening on http://127.0.0.1:{Port}/ after {ElapsedMs} ms")]
    public static partial void HandlerReady(ILogger logger, int pid, int port, long elapsedMs);

    [LoggerMessage(EventId = 5003, EventName = "HandlerExited", Level = LogLevel.Warning, Message = "Custom handler pid {Pid} exited with code {ExitCode}; restarting it and redelivering in-flight batches from their checkpoints")]
    public static partial void HandlerExited(ILogger logger, int pid, int exitCode);

    [LoggerMessage(EventId = 5004, EventName = "HandlerOutput", Level = LogLevel.Information, Message = "[handler {Stream}] {Line}")]
    public static partial void HandlerOutput(ILogger logger, string stream, string line);

    [LoggerMessage(EventId = 5005, EventName = "FunctionLog", Level = LogLevel.Information, Message = "[{Function}] {Line}")]
    public static partial void FunctionLog(ILogger logger, string function, string line);

    [LoggerMessage(EventId = 5006, EventName = "InvocationFailed", Level = LogLevel.Error, Message = "Executed 'Functions.{Function}' (Failed, Id={InvocationId}, partition {PartitionId}, {Count} events, sequence {First}-{Last})")]
    public static partial void InvocationFailed(ILogger logger, Exception exception, string function, Guid invocationId, string partitionId, int count, long first, long last);

    [LoggerMessage(EventId = 5007, EventName = "RetryScheduled", Level = LogLevel.Warning, Message = "Retrying 'Functions.{Function}' on partition {PartitionId} in {Delay} (retry {RetryCount} of {MaxRetryCount}); the checkpoint holds until the retries end")]
    public static partial void RetryScheduled(ILogger logger, string function, string partitionId, TimeSpan delay, int retryCount, int maxRetryCount);

    [LoggerMessage(EventId = 5008, EventName = "RetriesExhausted", Level = LogLevel.Error, Message = "'Functions.{Function}' failed {Attempts} times on partition {PartitionId}; checkpointing past sequence {Last} as the Event Hubs extension does (no poison-event model)")]
    public static partial void RetriesExhausted(ILogger logger, string function, string partitionId, int attempts, long last);

    [LoggerMessage(EventId = 5009, EventName = "FunctionTimeout", Level = LogLevel.Error, Message = "Timeout value of {Timeout} exceeded by function 'Functions.{Function}' (Id: '{InvocationId}'); restarting the handler as the Functions host restarts itself")]
    public static partial void FunctionTimeout(ILogger logger, TimeSpan timeout, string function, Guid invocationId);

    [LoggerMessage(EventId = 5010, EventName = "ListenerStarted", Level = LogLevel.Debug, Message = "Listener {Function} partition {PartitionId} starts at sequence {SequenceNumber} ({Origin})")]
    public static partial void ListenerStarted(ILogger logger, string function, string partitionId, long sequenceNumber, string origin);

    [LoggerMessage(EventId = 5011, EventName = "HostStarted", Level = LogLevel.Information, Message = "Functions host: {Count} functions ({Names}) from {AppRoot}")]
    public static partial void HostStarted(ILogger logger, int count, string names, string appRoot);

    [LoggerMessage(EventId = 5012, EventName = "NoFunctionApp", Level = LogLevel.Information, Message = "No host.json in {AppRoot}: the local Functions host has no functions to run")]
    public static partial void NoFunctionApp(ILogger logger, string appRoot);

    [LoggerMessage(EventId = 5013, EventName = "ProcessorCrashed", Level = LogLevel.Error, Message = "Event processor of '{Function}' stopped on an unexpected error; restarting the host generation")]
    public static partial void ProcessorCrashed(ILogger logger, Exception exception, string function);

    [LoggerMessage(EventId = 5027, EventName = "ProcessorStartAbandoned", Level = LogLevel.Debug, Message = "Event processor of '{Function}' was still starting when the host began stopping; its start ended with the stop")]
    public static partial void ProcessorStartAbandoned(ILogger logger, Exception exception, string function);

    [LoggerMessage(EventId = 5014, EventName = "HandlerStartFailed", Level = LogLevel.Error, Message = "Custom handler did not start listening; retrying in {Delay}")]
    public static partial void HandlerStartFailed(ILogger logger, Exception exception, TimeSpan delay);

    [LoggerMessage(EventId = 5016, EventName = "OrphanKilled", Level = LogLevel.Warning, Message = "Stopped handler pid {Pid} left running by a previous devhost that did not shut down")]
    public static partial void OrphanKilled(ILogger logger, int pid);

    [LoggerMessage(EventId = 5015, EventName = "InvocationSucceeded", Level = LogLevel.Debug, Message = "Executed 'Functions.{Function}' (Succeeded, Id={InvocationId}, partition {PartitionId}, {Count} events, {Outputs} output events)")]
    public static partial void InvocationSucceeded(ILogger logger, string function, Guid invocationId, string partitionId, int count, int outputs);

    [LoggerMessage(EventId = 5018, EventName = "RetentionGap", Level = LogLevel.Error, Message = "'Functions.{Function}' partition {PartitionId} (consumer group {ConsumerGroup}): retention removed sequence {From}-{To} ({Lost} events) before they were read; they are lost to this consumer group")]
    public static partial void RetentionGap(ILogger logger, string function, string partitionId, string consumerGroup, long from, long to, long lost);

    [LoggerMessage(EventId = 5019, EventName = "StallStarted", Level = LogLevel.Warning, Message = "'Functions.{Function}' partition {PartitionId} (consumer group {ConsumerGroup}) is stalled: lag {Lag}, no checkpoint progress for {SinceProgress}, oldest unprocessed event {OldestAge} old")]
    public static partial void StallStarted(ILogger logger, string function, string partitionId, string consumerGroup, long lag, TimeSpan sinceProgress, TimeSpan? oldestAge);

    [LoggerMessage(EventId = 5020, EventName = "StallEnded", Level = LogLevel.Information, Message = "'Functions.{Function}' partition {PartitionId} (consumer group {ConsumerGroup}) is moving again after a stall of about {Duration}; lag {Lag}")]
    public static partial void StallEnded(ILogger logger, string function, string partitionId, string consumerGroup, TimeSpan duration, long lag);

    [LoggerMessage(EventId = 5021, EventName = "StallCheckFailed", Level = LogLevel.Error, Message = "The stall detector could not look at every partition; it looks again at its next interval")]
    public static partial void StallCheckFailed(ILogger logger, Exception exception);

    [LoggerMessage(EventId = 5025, EventName = "ObserveFailed", Level = LogLevel.Warning, Message = "Could not re-read the instances' checkpoints and ownership records; status keeps the last view and reads again at the next interval")]
    public static partial void ObserveFailed(ILogger logger, Exception exception);

    [LoggerMessage(EventId = 5026, EventName = "ProcessorError", Level = LogLevel.Warning, Message = "Event processor of '{Function}' (partition {PartitionId}) reported an error during {Operation}; the SDK retries or hands the partition on")]
    public static partial void ProcessorError(ILogger logger, Exception exception, string function, string partitionId, string operation);
}
