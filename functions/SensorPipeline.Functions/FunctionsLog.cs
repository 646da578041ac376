namespace SensorPipeline.Functions;

/// <summary>Every log message of the handler, source-generated (no interpolation, no boxing when disabled).</summary>
internal static partial class FunctionsLog
{
    [LoggerMessage(EventId = 1, EventName = "Listening", Level = LogLevel.Information,
        Message = "SensorPipeline.Functions listening on {Address} (host.json {HostJson}: maxEventBatchSize {MaxEventBatchSize} from {Source}, at most {MaxProcessorReadings} readings per processor invocation)")]
    public static partial void Listening(ILogger logger, string address, string hostJson, int maxEventBatchSize, string source, int maxProcessorReadings);

    [LoggerMessage(EventId = 2, EventName = "ContainersReady", Level = LogLevel.Information,
        Message = "Cosmos DB database {Database} and containers {Containers} exist (Cosmos__CreateIfNotExists=true)")]
    public static partial void ContainersReady(ILogger logger, string database, string containers);

    [LoggerMessage(EventId = 10, EventName = "Split", Level = LogLevel.Debug,
        Message = "Splitter partition {PartitionId}: {Events} events, {Readings} readings, weather {Weather}, seismic {Seismic}, dead letters {DeadLetters} (retry {RetryCount})")]
    public static partial void Split(ILogger logger, string partitionId, int events, int readings, int weather, int seismic, int deadLetters, int retryCount);

    [LoggerMessage(EventId = 11, EventName = "Processed", Level = LogLevel.Debug,
        Message = "{Function} partition {PartitionId}: {Envelopes} envelopes, {Readings} readings, live {Live}, archived {Archived}, device states pending {DeviceStates}, dead letters {DeadLetters} (retry {RetryCount})")]
    public static partial void Processed(ILogger logger, string function, string partitionId, int envelopes, int readings, int live, int archived, int deviceStates, int deadLetters, int retryCount);

    [LoggerMessage(EventId = 20, EventName = "TransientStoreFailure", Level = LogLevel.Information,
        Message = "Cosmos DB {Operation} answered {Status} (attempt {Attempt}); retrying in {DelayMs} ms")]
    public static partial void TransientStoreFailure(ILogger logger, string operation, int status, int attempt, double delayMs);

    [LoggerMessage(EventId = 30, EventName = "InvocationFailed",
        Message = "{Function} failed ({Kind}); answering {Status} (0 = aborted) so the host retries the batch before checkpointing")]
    public static partial void InvocationFailed(ILogger logger, LogLevel level, string function, string kind, int status, Exception exception);

    [LoggerMessage(EventId = 40, EventName = "IsolationStarted", Level = LogLevel.Warning,
        Message = "{Function} partition {PartitionId}: the batch at sequence {FirstSequence} ({Events} events) failed {Failures} times for a reason no retry fixes; testing its events on their own")]
    public static partial void IsolationStarted(ILogger logger, string function, string partitionId, long firstSequence, int events, int failures, Exception exception);

    [LoggerMessage(EventId = 41, EventName = "PoisonIsolated", Level = LogLevel.Warning,
        Message = "{Function} partition {PartitionId}: {Poison} of {Events} events of the batch at sequence {FirstSequence} fail on their own while the rest succeeded: dead-lettered as failed-in-isolation, the rest committed")]
    public static partial void PoisonIsolated(ILogger logger, string function, string partitionId, long firstSequence, int poison, int events);

    [LoggerMessage(EventId = 43, EventName = "AttemptLedgerUnavailable", Level = LogLevel.Warning,
        Message = "{Function} partition {PartitionId}: the attempt ledger (batch at sequence {FirstSequence}, {Failures} failures) could not be read or written; counting in memory")]
    public static partial void AttemptLedgerUnavailable(ILogger logger, string function, string partitionId, long firstSequence, int failures, Exception exception);

    [LoggerMessage(EventId = 47, EventName = "AttemptLedgerRefused", Level = LogLevel.Error,
        Message = "{Function} partition {PartitionId}: the store refused the attempt ledger's document (batch at sequence {FirstSequence}, {Failures} failures) while deadletters took a known-good write: {Detail}. The count is kept in memory only: a restart forgets it")]
    public static partial void AttemptLedgerRefused(ILogger logger, string function, string partitionId, long firstSequence, int failures, string detail);

    [LoggerMessage(EventId = 45, EventName = "DocumentRefused", Level = LogLevel.Warning,
        Message = "Cosmos DB refused a {Operation} to {Container} twice ({Status}: {Detail}) while the container took a known-good write: this document's refusal, dead-lettered")]
    public static partial void DocumentRefused(ILogger logger, string container, string operation, int status, string detail);

    [LoggerMessage(EventId = 46, EventName = "CanaryNotDeleted", Level = LogLevel.Warning,
        Message = "The store canary in {Container} was written but not deleted (it stays, harmless, until the next refusal's canary)")]
    public static partial void CanaryNotDeleted(ILogger logger, string container, Exception exception);

    [LoggerMessage(EventId = 54, EventName = "HubPartitionsRead", Level = LogLevel.Information,
        Message = "Hub {Hub}: {Partitions} partitions; each device's readings go to one of them by its id, with this count until the handler restarts")]
    public static partial void HubPartitionsRead(ILogger logger, string hub, int partitions);

    [LoggerMessage(EventId = 44, EventName = "DeadLetterReduced", Level = LogLevel.Warning,
        Message = "Dead letter {Id} refused as is ({Status}); stored reduced (reason, hashes, position, the first {KeptBytes} of {Bytes} bytes)")]
    public static partial void DeadLetterReduced(ILogger logger, string id, int status, int keptBytes, int bytes);

    [LoggerMessage(EventId = 50, EventName = "DeviceStatesFlushFailed", Level = LogLevel.Warning,
        Message = "Device states: {Failed} of {Due} writes failed this round; they stay pending and are written again next round")]
    public static partial void DeviceStatesFlushFailed(ILogger logger, int failed, int due, Exception? exception);

    [LoggerMessage(EventId = 51, EventName = "DeviceStatesRoundFailed", Level = LogLevel.Warning,
        Message = "Device states: the flusher's round failed ({Step}); pending states are kept and the round runs again")]
    public static partial void DeviceStatesRoundFailed(ILogger logger, string step, Exception exception);

    [LoggerMessage(EventId = 52, EventName = "MarkRecovered", Level = LogLevel.Information,
        Message = "Recovered pending-states mark {MarkId} of an instance taken for dead: {Devices} devices' newest stored readings, {Written} states written, {Superseded} already newer")]
    public static partial void MarkRecovered(ILogger logger, string markId, int devices, int written, int superseded);

    [LoggerMessage(EventId = 53, EventName = "DeviceStatesLeftPending", Level = LogLevel.Error,
        Message = "Stopping with {Pending} device states not written: the mark {MarkId} stays, and another instance rebuilds them from readings once it expires")]
    public static partial void DeviceStatesLeftPending(ILogger logger, int pending, string markId);

    [LoggerMessage(EventId = 55, EventName = "DeviceStatesStopCutShort", Level = LogLevel.Warning,
        Message = "Stopping ran out of time (the host's shutdown timeout) with {Pending} device states not written: the mark {MarkId} stays, and another instance rebuilds them from readings once it expires")]
    public static partial void DeviceStatesStopCutShort(ILogger logger, int pending, string markId);
}
