using Microsoft.Extensions.Logging;
using SensorPipeline.FunctionsHost.Checkpoints;
using SensorPipeline.FunctionsHost.Config;
using SensorPipeline.FunctionsHost.Hubs;

namespace SensorPipeline.FunctionsHost.Status;

/// <summary>The local stall detector: every <see cref="FunctionsHostOptions.StallCheckInterval"/> it looks at each
/// function's partitions from the outside — checkpoint, lag, and the enqueued time of the next unprocessed event — and
/// calls a partition stalled when it has lag and either its checkpoint has not moved for longer than
/// <see cref="FunctionsHostOptions.StallThreshold"/>, or its oldest unprocessed event is older than
/// <see cref="FunctionsHostOptions.StallRetentionFraction"/> of the hub's retention (the backlog is on its way to a
/// retention gap). A start and an end are each logged once; the verdict is in <c>/status/functions</c>.</summary>
internal sealed class StallMonitor(
    FunctionsHostState state,
    ICheckpointView checkpoints,
    IEventHubsGateway gateway,
    FunctionsHostOptions options,
    TimeProvider time,
    ILogger logger)
{
    public async Task RunAsync(CancellationToken cancellationToken)
    {
        using var timer = new PeriodicTimer(options.StallCheckInterval, time);
        try
        {
            while (await timer.WaitForNextTickAsync(cancellationToken))
            {
                try
                {
                    await CheckAllAsync(cancellationToken);
                }
                catch (Exception ex) when (ex is not OperationCanceledException)
                {
                    // A failed look (e.g. a read error from the log) must not end the detector: say so, look again.
                    FunctionsHostLog.StallCheckFailed(logger, ex);
                }
            }
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // Shutdown: nothing to finish.
        }
    }

    /// <summary>One look at every partition of every function.</summary>
    public async Task CheckAllAsync(CancellationToken cancellationToken)
    {
        foreach (var function in state.Functions)
        {
            if (FunctionAppLoader.Find(gateway.Hubs, function.Definition.Trigger.EventHubName) is not { } hub)
            {
                continue;
            }

            foreach (var partitionId in hub.PartitionIds)
            {
                await CheckAsync(function, hub, partitionId, cancellationToken);
            }
        }
    }

    private async Task CheckAsync(FunctionState function, HubInfo hub, string partitionId, CancellationToken cancellationToken)
    {
        var trigger = function.Definition.Trigger;
        var health = function.Health(partitionId);
        var previous = health.Stall;
        var bounds = gateway.GetBounds(hub.Name, partitionId);
        var checkpoint = checkpoints.Peek(new CheckpointKey(trigger.EventHubName, trigger.ConsumerGroup, partitionId));
        var processedThrough = checkpoint?.SequenceNumber ?? (bounds.BeginningSequenceNumber - 1);
        var lag = Math.Max(0, bounds.LastEnqueuedSequenceNumber - processedThrough);
        var now = time.GetUtcNow();

        // Progress is a moved checkpoint or an empty backlog. Measuring from the checkpoint's own time would call a
        // partition that was idle for an hour stalled the moment one event arrives.
        var progressed = previous.EvaluatedAt is null || lag == 0 || checkpoint?.SequenceNumber != previous.CheckpointSequenceNumber;
        var progressAt = progressed ? now : previous.ProgressAt ?? now;
        var oldest = lag == 0 ? null : await OldestUnprocessedAsync(hub.Name, partitionId, processedThrough + 1, cancellationToken);

        var sinceProgress = now - progressAt;
        TimeSpan? oldestAge = oldest is { } o ? now - o : null;
        var stalled = lag > 0
            && (sinceProgress > options.StallThreshold
                || (hub.RetentionPeriod is { } retention && oldestAge > retention * options.StallRetentionFraction));
        health.Record(new StallVerdict(stalled, checkpoint?.SequenceNumber, lag, progressAt, oldest, now));
        if (stalled && !previous.Stalled)
        {
            FunctionsHostLog.StallStarted(logger, function.Definition.Name, partitionId, trigger.ConsumerGroup, lag, sinceProgress, oldestAge);
        }
        else if (!stalled && previous.Stalled)
        {
            FunctionsHostLog.StallEnded(logger, function.Definition.Name, partitionId, trigger.ConsumerGroup, now - (previous.ProgressAt ?? now), lag);
        }
    }

    private async Task<DateTimeOffset?> OldestUnprocessedAsync(string hub, string partitionId, long next, CancellationToken cancellationToken)
    {
        // A read from below the oldest retained event starts at that event: after a retention gap the oldest
        // unprocessed event is the oldest one still there.
        var events = await gateway.ReadAsync(hub, partitionId, next, 1, 1, TimeSpan.Zero, cancellationToken);
        return events.Count == 0 ? null : events[0].EnqueuedTime;
    }
}
