using SensorPipeline.FunctionsHost.Checkpoints;
using SensorPipeline.FunctionsHost.Config;
using SensorPipeline.FunctionsHost.Hubs;

namespace SensorPipeline.FunctionsHost.Status;

/// <summary>What the running host knows, for /status and the pause/resume endpoints.</summary>
public sealed class FunctionsHostState(TimeProvider time)
{
    // Set with the functions: no function, no look at the hubs.
    private IEventHubsGateway? _gateway;
    private readonly Lock _lock = new();
    private FunctionState[] _functions = [];
    private ICheckpointView? _store;
    private (int Pid, int Port, int Starts) _handler;
    private string _instanceId = string.Empty;
    private TimeSpan _expiration = EventHubsHostSettings.Default.PartitionOwnershipExpirationInterval;
    private int _targetPerInstance = EventHubsHostSettings.Default.TargetEventsPerInstance;

    internal IReadOnlyList<FunctionState> Functions => _functions;

    /// <summary>Ownership over time; null until an observing host starts recording (<see cref="StartHistory"/>).</summary>
    internal OwnershipHistory? History { get; private set; }

    /// <summary>Starts the bounded ownership history, one sample per <paramref name="interval"/>.</summary>
    internal void StartHistory(TimeSpan interval) => History = new OwnershipHistory(interval);

    /// <summary>Samples every function's active owners and owner changes into the history (a no-op before it
    /// started).</summary>
    internal void RecordOwnership()
    {
        if (History is not { } history)
        {
            return;
        }

        var now = time.GetUtcNow();
        var sample = new FunctionOwnership[_functions.Length];
        for (var f = 0; f < sample.Length; f++)
        {
            var function = _functions[f];
            var owners = ActiveOwners(function, now);
            var partitions = new string?[PartitionCount(function)];
            long changes = 0;
            for (var p = 0; p < partitions.Length; p++)
            {
                var id = p.ToString(System.Globalization.CultureInfo.InvariantCulture);
                partitions[p] = owners.GetValueOrDefault(id);
                changes += function.Owned.OwnerChanges(id);
            }

            sample[f] = new FunctionOwnership(owners.Values.Distinct(StringComparer.Ordinal).Count(), changes, partitions);
        }

        history.Record(now, sample);
    }

    /// <summary>The ownership history of the last <paramref name="window"/> in bins of <paramref name="bin"/>;
    /// <c>Recording</c> false when this host keeps none (the single in-process host).</summary>
    public OwnershipTimeline Timeline(TimeSpan window, TimeSpan bin)
    {
        var now = time.GetUtcNow();
        if (History is not { } history)
        {
            return new OwnershipTimeline(false, now, 0, window.TotalSeconds, bin.TotalSeconds, []);
        }

        var (before, samples) = history.Since(now - window);
        return OwnershipTimeline.Build(now, history.Interval, window, bin, _functions.Select(f => f.Definition.Name).ToArray(), before, samples);
    }

    internal void Initialize(FunctionApp app, ICheckpointView store, IEventHubsGateway gateway, string instanceId = "")
    {
        _gateway = gateway;
        _functions = app.Functions.Select(f => new FunctionState(f)).ToArray();
        _store = store;
        _instanceId = instanceId;
        _expiration = app.Host.EventHubs.PartitionOwnershipExpirationInterval;
        _targetPerInstance = app.Host.EventHubs.TargetEventsPerInstance;
    }

    internal void SetHandler(int pid, int port, int starts)
    {
        lock (_lock)
        {
            _handler = (pid, port, starts);
        }
    }

    /// <summary>Pauses (true) or resumes (false) one function's listeners; false when no such function runs.</summary>
    public bool SetPaused(string functionName, bool paused)
    {
        var function = _functions.FirstOrDefault(f => string.Equals(f.Definition.Name, functionName, StringComparison.OrdinalIgnoreCase));
        if (function is null)
        {
            return false;
        }

        if (paused)
        {
            function.Pause.Pause();
        }
        else
        {
            function.Pause.Resume();
        }

        return true;
    }

    /// <summary>A snapshot: per function its invocation counters and, per partition, checkpoint and lag.</summary>
    public FunctionsHostStatus Snapshot()
    {
        (int pid, int port, int starts) handler;
        lock (_lock)
        {
            handler = _handler;
        }

        var now = time.GetUtcNow();
        var functions = new List<FunctionStatus>(_functions.Length);
        foreach (var function in _functions)
        {
            var trigger = function.Definition.Trigger;
            var partitions = new List<PartitionStatus>();
            var owners = ActiveOwners(function, now);
            var owned = function.Owned.Current;
            var partitionCount = PartitionCount(function);
            for (var p = 0; p < partitionCount; p++)
            {
                var id = p.ToString(System.Globalization.CultureInfo.InvariantCulture);
                var bounds = _gateway!.GetBounds(trigger.EventHubName, id);
                var checkpoint = _store?.Peek(new CheckpointKey(trigger.EventHubName, trigger.ConsumerGroup, id));

                // Unprocessed events: everything after the checkpoint, or everything retained when there is none.
                var processedThrough = checkpoint?.SequenceNumber ?? (bounds.BeginningSequenceNumber - 1);
                var lag = Math.Max(0, bounds.LastEnqueuedSequenceNumber - processedThrough);
                var health = function.Health(id);
                var stall = health.Stall;
                partitions.Add(new PartitionStatus(id, checkpoint?.SequenceNumber, checkpoint?.LastModified, bounds.LastEnqueuedSequenceNumber, lag,
                    health.RetentionGaps, health.RetentionGapEvents,
                    stall.Stalled, stall.Stalled ? Seconds(now - stall.ProgressAt!.Value) : null,
                    lag > 0 && stall.CheckpointSequenceNumber == checkpoint?.SequenceNumber && stall.OldestUnprocessedEnqueuedTime is { } oldest ? Seconds(now - oldest) : null,
                    health.Stalls,
                    owners.GetValueOrDefault(id), owned.Contains(id), function.Owned.OwnerChanges(id)));
            }

            functions.Add(new FunctionStatus(function.Definition.Name, trigger.EventHubName, trigger.ConsumerGroup, function.Pause.IsPaused,
                function.Succeeded, function.Failed, function.Retried, partitions,
                owners.Values.Distinct(StringComparer.Ordinal).Count(), function.Owned.Changes, _targetPerInstance) { Largest = function.Largest.Snapshot() });
        }

        return new FunctionsHostStatus(handler.pid == 0 ? null : handler.pid, handler.port == 0 ? null : handler.port, handler.starts, functions,
            _instanceId.Length == 0 ? null : _instanceId, _store?.Rewinds ?? 0);
    }

    private Dictionary<string, string> ActiveOwners(FunctionState function, DateTimeOffset now) =>
        function.Owned.Records.Where(r => r.IsActive(now, _expiration)).ToDictionary(r => r.PartitionId, r => r.OwnerId, StringComparer.Ordinal);

    private int PartitionCount(FunctionState function) =>
        _gateway!.Hubs.FirstOrDefault(h => string.Equals(h.Name, function.Definition.Trigger.EventHubName, StringComparison.OrdinalIgnoreCase))?.PartitionCount ?? 0;

    private static double Seconds(TimeSpan span) => Math.Round(Math.Max(0, span.TotalSeconds), 1);
}

/// <summary>The /status/functions document. <paramref name="InstanceId"/>: this host's owner id (null: a single
/// instance owning every partition); <paramref name="CheckpointRewinds"/>: checkpoint writes of this host that moved a
/// checkpoint backwards (another instance had checkpointed further after a move).</summary>
public sealed record FunctionsHostStatus(int? HandlerPid, int? HandlerPort, int HandlerStarts, IReadOnlyList<FunctionStatus> Functions, string? InstanceId = null, long CheckpointRewinds = 0);

/// <summary>One function: invocations ok / failed / retried, whether paused, its consumer group's partitions, and its largest invocations so far;
/// <paramref name="Instances"/>: distinct owners with an active ownership record; <paramref name="OwnershipChanges"/>:
/// times this host's own set of owned partitions changed; <paramref name="TargetEventsPerInstance"/>: the
/// target-based scaler's unprocessed events per instance (host.json targetUnprocessedEventThreshold, else
/// maxEventBatchSize).</summary>
public sealed record FunctionStatus(string Name, string EventHubName, string ConsumerGroup, bool Paused, long InvocationsSucceeded, long InvocationsFailed, long InvocationsRetried, IReadOnlyList<PartitionStatus> Partitions,
    int Instances = 0, long OwnershipChanges = 0, int TargetEventsPerInstance = 100)
{
    /// <summary>The function's largest invocations so far.</summary>
    public LargestInvocations Largest { get; init; } = new(0, 0, 0);
}

/// <summary>One partition of a consumer group: the checkpointed sequence number (null before the first), the last
/// enqueued one, and the lag between them; the retention gaps the listener crossed (events removed before this consumer
/// group read them); the stall detector's verdict as of its last look (stalledForSeconds: since the checkpoint last
/// moved or the backlog was last empty, null when not stalled; oldestUnprocessedAgeSeconds: null when nothing waits)
/// and how many stalls started since devhost started. With several instances: the active owner (null: none), whether
/// this host owns it, and how often its recorded owner changed while this host watched.</summary>
public sealed record PartitionStatus(
    string PartitionId,
    long? CheckpointSequenceNumber,
    DateTimeOffset? CheckpointTime,
    long LastEnqueuedSequenceNumber,
    long Lag,
    long RetentionGaps,
    long RetentionGapEvents,
    bool Stalled,
    double? StalledForSeconds,
    double? OldestUnprocessedAgeSeconds,
    long Stalls,
    string? Owner = null,
    bool OwnedHere = false,
    long OwnerChanges = 0);
