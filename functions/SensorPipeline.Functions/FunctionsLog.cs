using Microsoft.Extensions.Logging;

namespace SensorPipeline.Functions;

/// <summary>Every log message of the handler, source-generated (no interpolation, no boxing when disabled).</summary>
internal static partial class FunctionsLog
{
    [LoggerMessage(EventId = 1, EventName = "Listening", Level = LogLevel.Information,
        Message = "SensorPipeline.Functions listening on {Address} (host.json {HostJson}: maxEventBatchSize {MaxEventBatchSize}, at most {MaxProcessorReadings} readings per processor invocation)")]
    public static partial void Listening(ILogger logger, string address, string hostJson, int maxEventBatchSize, int maxProcessorReadings);

    [LoggerMessage(EventId = 2, EventName = "ContainersReady", Level = LogLevel.Information,
        Message = "Cosmos DB database {Database} and containers {Containers} exist (Cosmos__CreateIfNotExists=true)")]
    public static partial void ContainersReady(ILogger logger, string database, string containers);

    [LoggerMessage(EventId = 10, EventName = "Split", Level = LogLevel.Debug,
        Message = "Splitter partition {PartitionId}: {Events} events, {Readings} readings, weather {Weather}, seismic {Seismic}, dead letters {DeadLetters} (retry {RetryCount})")]
    public static partial void Split(ILogger logger, string partitionId, int events, int readings, int weather, int seismic, int deadLetters, int retryCount);

    [LoggerMessage(EventId = 11, EventName = "Processed", Level = LogLevel.Debug,
        Message = "{Function} partition {PartitionId}: {Envelopes} envelopes, {Readings} readings, live {Live}, archived {Archived}, devices updated {Updated}, superseded {Superseded}, dead letters {DeadLetters} (retry {RetryCount})")]
    public static partial void Processed(ILogger logger, string function, string partitionId, int envelopes, int readings, int live, int archived, int updated, int superseded, int deadLetters, int retryCount);

    [LoggerMessage(EventId = 20, EventName = "TransientStoreFailure", Level = LogLevel.Information,
        Message = "Cosmos DB {Operation} answered {Status} (attempt {Attempt}); retrying in {DelayMs} ms")]
    public static partial void TransientStoreFailure(ILogger logger, string operation, int status, int attempt, double delayMs);

    [LoggerMessage(EventId = 30, EventName = "InvocationFailed",
        Message = "{Function} failed ({Kind}); answering {Status} (0 = aborted) so the host retries the batch before checkpointing")]
    public static partial void InvocationFailed(ILogger logger, LogLevel level, string function, string kind, int status, Exception exception);
}
