namespace SensorPipeline.FunctionsHost.Config;

/// <summary>Where a listener starts when its consumer group has no checkpoint yet (host.json
/// <c>extensions.eventHubs.initialOffsetOptions.type</c>).</summary>
public enum InitialOffsetType
{
    /// <summary>The oldest retained event (the extension's default).</summary>
    FromStart,

    /// <summary>Only events enqueued after the listener started.</summary>
    FromEnd,

    /// <summary>The first event enqueued at or after <see cref="EventHubsHostSettings.InitialOffsetEnqueuedTimeUtc"/>.</summary>
    FromEnqueuedTime,
}

/// <summary>host.json <c>extensions.eventHubs</c>, with the Event Hubs extension 6.x defaults (EventHubOptions.cs).</summary>
/// <param name="MaxEventBatchSize">Most events per invocation. Default 100; at least 1.</param>
/// <param name="MinEventBatchSize">Events the listener waits for, up to <paramref name="MaxWaitTime"/>. Default 1; 1 … MaxEventBatchSize.</param>
/// <param name="MaxWaitTime">Longest wait for MinEventBatchSize events; only used when MinEventBatchSize &gt; 1. Default 1 minute; 0 … 10 minutes.</param>
/// <param name="BatchCheckpointFrequency">Batches between checkpoints. Default 1; at least 1.</param>
/// <param name="PrefetchCount">Events read ahead per partition. Default 300; at least 0. Devhost reads from a local log, so it only bounds one read.</param>
/// <param name="LoadBalancingUpdateInterval">Time between an instance's ownership cycles (the processor's
/// LoadBalancingUpdateInterval). Default 30 seconds; more than 0.</param>
/// <param name="PartitionOwnershipExpirationInterval">How long an ownership record counts without renewal (the
/// processor's PartitionOwnershipExpirationInterval). Default 2 minutes; more than the update interval.</param>
/// <param name="TargetUnprocessedEventThreshold">Unprocessed events per instance the target-based scaler aims at;
/// null = MaxEventBatchSize. At least 1.</param>
public sealed record EventHubsHostSettings(
    int MaxEventBatchSize,
    int MinEventBatchSize,
    TimeSpan MaxWaitTime,
    int BatchCheckpointFrequency,
    int PrefetchCount,
    InitialOffsetType InitialOffsetType,
    DateTimeOffset? InitialOffsetEnqueuedTimeUtc,
    TimeSpan LoadBalancingUpdateInterval,
    TimeSpan PartitionOwnershipExpirationInterval,
    int? TargetUnprocessedEventThreshold)
{
    /// <summary>The extension's defaults, used when host.json says nothing. The two ownership intervals are the
    /// Event Hubs processor's (EventProcessorOptions), which the extension does not change.</summary>
    public static EventHubsHostSettings Default { get; } =
        new(100, 1, TimeSpan.FromMinutes(1), 1, 300, InitialOffsetType.FromStart, null, TimeSpan.FromSeconds(30), TimeSpan.FromMinutes(2), null);

    /// <summary>The scaler's target of unprocessed events per instance: TargetUnprocessedEventThreshold, else
    /// MaxEventBatchSize (target-based scaling for Event Hubs).</summary>
    public int TargetEventsPerInstance => TargetUnprocessedEventThreshold ?? MaxEventBatchSize;
}

/// <summary>The retry strategy of host.json or function.json <c>retry</c>.</summary>
public enum RetryStrategy
{
    /// <summary><c>fixedDelay</c>: <see cref="RetryPolicy.DelayInterval"/> between attempts.</summary>
    FixedDelay,

    /// <summary><c>exponentialBackoff</c>: randomized, from <see cref="RetryPolicy.MinimumInterval"/> up to <see cref="RetryPolicy.MaximumInterval"/>.</summary>
    ExponentialBackoff,
}

/// <summary>A function retry policy. <paramref name="MaxRetryCount"/> -1 retries forever.</summary>
public sealed record RetryPolicy(RetryStrategy Strategy, int MaxRetryCount, TimeSpan DelayInterval, TimeSpan MinimumInterval, TimeSpan MaximumInterval);

/// <summary>host.json <c>customHandler.description</c>, resolved against the app root.</summary>
/// <param name="ExecutablePath">The process to start (defaultExecutablePath), absolute when it exists under the working directory.</param>
/// <param name="Arguments">arguments, then defaultWorkerPath, then workerArguments, as the host builds the command line.</param>
/// <param name="WorkingDirectory">workingDirectory relative to the app root; default the app root.</param>
public sealed record CustomHandlerDescription(string ExecutablePath, IReadOnlyList<string> Arguments, string WorkingDirectory);

/// <summary>Everything devhost takes from host.json.</summary>
/// <param name="FunctionTimeout">null = no limit (host.json "-1").</param>
public sealed record HostSettings(EventHubsHostSettings EventHubs, RetryPolicy? Retry, TimeSpan? FunctionTimeout, CustomHandlerDescription Handler);

/// <summary>How the trigger's event bodies are put into <c>Data</c> (function.json <c>dataType</c>).</summary>
public enum TriggerDataType
{
    /// <summary>No dataType: treated as string (bodies decoded as UTF-8).</summary>
    Unspecified,

    /// <summary><c>string</c>: bodies decoded as UTF-8.</summary>
    Text,

    /// <summary><c>binary</c>: bodies as base64.</summary>
    Binary,
}

/// <summary>The function's <c>eventHubTrigger</c> binding with settings resolved.</summary>
/// <param name="ConsumerGroupSetting">The app setting a consumerGroup of exactly <c>%NAME%</c> names (what
/// <see cref="RunConsumerGroups"/> replaces); null for a literal group.</param>
public sealed record TriggerBinding(string Name, string EventHubName, string ConsumerGroup, string Connection, TriggerDataType DataType,
    string? ConsumerGroupSetting = null);

/// <summary>An <c>eventHub</c> output binding with settings resolved. <paramref name="IsBinary"/>: dataType binary
/// (then a base64 string is NOT decoded).</summary>
public sealed record OutputBinding(string Name, string EventHubName, string Connection, bool IsBinary);

/// <summary>One function: its folder name, the function.json it came from, its bindings and retry policy.</summary>
/// <param name="Retry">function.json <c>retry</c>, else host.json <c>retry</c>, else none.</param>
/// <param name="FullyQualifiedNamespace">The host of the trigger connection's Endpoint, as the extension reports it in PartitionContext.</param>
public sealed record FunctionDefinition(
    string Name,
    string FilePath,
    TriggerBinding Trigger,
    IReadOnlyList<OutputBinding> Outputs,
    RetryPolicy? Retry,
    string FullyQualifiedNamespace);

/// <summary>A function app as devhost runs it.</summary>
/// <param name="Values">local.settings.json <c>Values</c>: given to the handler's environment.</param>
public sealed record FunctionApp(string AppRoot, HostSettings Host, IReadOnlyList<FunctionDefinition> Functions, IReadOnlyDictionary<string, string> Values);
