using SensorPipeline.FunctionsHost.Checkpoints;
using SensorPipeline.FunctionsHost.Config;
using SensorPipeline.FunctionsHost.Hubs;

namespace SensorPipeline.FunctionsHost.Status;

/// <summary>What the running host knows, for /status and the pause/resume endpoints.</summary>
public sealed class FunctionsHostState(IEventHubsGateway gateway, TimeProvider time)
{
    private readonly Lock _lock = new();
    private FunctionState[] _functions = [];
    private FileCheckpointStore? _store;
    private (int Pid, int Port, int Starts) _handler;

    internal IReadOnlyList<FunctionState> Functions => _functions;

    internal void Initialize(FunctionApp app, FileCheckpointStore store)
    {
        _functions = app.Functions.Select(f => new FunctionState(f)).ToArray();
        _store = store;
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
            var hub = gateway.Hubs.FirstOrDefault(h => string.Equals(h.Name, trigger.EventHubName, StringComparison.OrdinalIgnoreCase));
            var partitions = new List<PartitionStatus>();
            for (var p = 0; hub is not null && p < hub.PartitionCount; p++)
            {
                var id = p.ToString(System.Globalization.CultureInfo.InvariantCulture);
                var bounds = gateway.GetBounds(trigger.EventHubName, id);
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
                    health.Stalls));
            }

            functions.Add(new FunctionStatus(function.Definition.Name, trigger.EventHubName, trigger.ConsumerGroup, function.Pause.IsPaused,
                function.Succeeded, function.Failed, function.Retried, partitions) { Largest = function.Largest.Snapshot() });
        }

        return new FunctionsHostStatus(handler.pid == 0 ? null : handler.pid, handler.port == 0 ? null : handler.port, handler.starts, functions);
    }

    private static double Seconds(TimeSpan span) => Math.Round(Math.Max(0, span.TotalSeconds), 1);
}

/// <summary>The /status/functions document.</summary>
public sealed record FunctionsHostStatus(int? HandlerPid, int? HandlerPort, int HandlerStarts, IReadOnlyList<FunctionStatus> Functions);

/// <summary>One function: invocations ok / failed / retried, whether paused, its consumer group's partitions, and its
/// largest invocations so far.</summary>
public sealed record FunctionStatus(string Name, string EventHubName, string ConsumerGroup, bool Paused, long InvocationsSucceeded, long InvocationsFailed, long InvocationsRetried, IReadOnlyList<PartitionStatus> Partitions)
{
    public LargestInvocations Largest { get; init; } = new(0, 0, 0);
}

/// <summary>One partition of a consumer group: the checkpointed sequence number (null before the first), the last
/// enqueued one, and the lag between them; the retention gaps the listener crossed (events removed before this consumer
/// group read them); the stall detector's verdict as of its last look (stalledForSeconds: since the checkpoint last
/// moved or the backlog was last empty, null when not stalled; oldestUnprocessedAgeSeconds: null when nothing waits)
/// and how many stalls started since devhost started.</summary>
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
    long Stalls);
