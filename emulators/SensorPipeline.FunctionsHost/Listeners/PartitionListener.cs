using Microsoft.Extensions.Logging;
using SensorPipeline.FunctionsHost.Checkpoints;
using SensorPipeline.FunctionsHost.Config;
using SensorPipeline.FunctionsHost.Hubs;
using SensorPipeline.FunctionsHost.Invocation;
using SensorPipeline.FunctionsHost.Status;

namespace SensorPipeline.FunctionsHost.Listeners;

/// <summary>One function on one partition, with the Event Hubs extension's batch rules
/// (EventHubListener.PartitionProcessor): up to maxEventBatchSize events per invocation; with minEventBatchSize &gt; 1
/// it waits for that many up to maxWaitTime; one invocation in flight, in order; starts after the checkpoint, else
/// at initialOffsetOptions; checkpoints every batchCheckpointFrequency batches whether the function succeeded or not,
/// after its retries when a retry policy applies.</summary>
internal sealed partial class PartitionListener(
    FunctionState function,
    string partitionId,
    HostSettings host,
    IEventHubsGateway gateway,
    FileCheckpointStore checkpoints,
    HandlerClient client,
    FunctionsHostOptions options,
    TimeProvider time,
    ILogger logger)
{
    private readonly FunctionDefinition _definition = function.Definition;
    private readonly CheckpointKey _key = new(function.Definition.Trigger.EventHubName, function.Definition.Trigger.ConsumerGroup, partitionId);
    private readonly PartitionHealth _health = function.Health(partitionId);
    private int _batchesSinceCheckpoint;

    public string PartitionId => partitionId;

    /// <summary>Runs until the generation ends or, between batches, until <paramref name="lost"/> says another instance
    /// took the partition: a read or pause wait is cut short, an in-flight invocation finishes (and a retry policy
    /// stops retrying), and the batch it finished is checkpointed as usual — checkpoints are not conditioned on
    /// ownership. A batch whose retries were cut short is not checkpointed: the new owner redelivers it.</summary>
    public async Task RunAsync(Generation generation, CancellationToken lost)
    {
        var token = generation.Token;
        using var reading = CancellationTokenSource.CreateLinkedTokenSource(token, lost);
        var checkpoint = await checkpoints.ReadAsync(_key, reading.Token);
        var next = checkpoint is not null ? checkpoint.SequenceNumber + 1 : await InitialPositionAsync(reading.Token);
        FunctionsHostLog.ListenerStarted(logger, _definition.Name, partitionId, next, checkpoint is not null ? "checkpoint" : host.EventHubs.InitialOffsetType.ToString());
        var firstInvocation = true;
        using var invoker = new BatchInvoker(function, partitionId, host, gateway, client, time, logger);
        while (!reading.IsCancellationRequested)
        {
            await function.Pause.WaitAsync(reading.Token);
            var events = await ReadBatchAsync(next, firstInvocation, checkpoint, reading.Token);
            if (events.Count == 0)
            {
                // The extension never invokes a function with an empty batch, and never checkpoints one.
                continue;
            }

            NoteRetentionGap(next, events[0].SequenceNumber);

            // A pause requested while this read waited holds the batch until resumed.
            await function.Pause.WaitAsync(reading.Token);
            firstInvocation = false;
            _batchesSinceCheckpoint++;
            var checkpointAfter = _batchesSinceCheckpoint >= host.EventHubs.BatchCheckpointFrequency;
            var finished = await invoker.InvokeWithRetriesAsync(events, checkpointAfter, generation, lost);
            next = events[^1].SequenceNumber + 1;

            // CHECKPOINT. At-least-once: the checkpoint moves only after the invocation and all its retries ended, so a
            // crash before this line redelivers the batch. It moves after a FAILED batch too — the extension
            // "intentionally checkpoint[s] the batch regardless of function success/failure" (no poison-event model;
            // a retry policy is what holds it). Never after a restart or shutdown was requested: the batch may not have
            // been processed, and the next generation must see it again.
            if (finished && checkpointAfter && generation.MayCheckpoint)
            {
                var last = events[^1];
                checkpoint = await checkpoints.WriteAsync(_key, last.SequenceNumber, last.Offset, token);
                _batchesSinceCheckpoint = 0;
            }
        }
    }

    private async Task<long> InitialPositionAsync(CancellationToken cancellationToken)
    {
        var bounds = gateway.GetBounds(_definition.Trigger.EventHubName, partitionId);
        switch (host.EventHubs.InitialOffsetType)
        {
            case InitialOffsetType.FromEnd:
                return bounds.LastEnqueuedSequenceNumber + 1;
            case InitialOffsetType.FromEnqueuedTime:
                return await SeekEnqueuedTimeAsync(bounds, host.EventHubs.InitialOffsetEnqueuedTimeUtc!.Value, cancellationToken);
            default:
                return bounds.BeginningSequenceNumber;
        }
    }

    private async Task<long> SeekEnqueuedTimeAsync(PartitionBounds bounds, DateTimeOffset enqueuedTime, CancellationToken cancellationToken)
    {
        var position = bounds.BeginningSequenceNumber;
        while (position <= bounds.LastEnqueuedSequenceNumber)
        {
            var page = await gateway.ReadAsync(_definition.Trigger.EventHubName, partitionId, position, 1, 1000, TimeSpan.Zero, cancellationToken);
            if (page.Count == 0)
            {
                break;
            }

            foreach (var e in page)
            {
                if (e.EnqueuedTime >= enqueuedTime)
                {
                    return e.SequenceNumber;
                }
            }

            position = page[^1].SequenceNumber + 1;
        }

        return bounds.LastEnqueuedSequenceNumber + 1;
    }

    private async Task<IReadOnlyList<ReceivedEvent>> ReadBatchAsync(long next, bool firstInvocation, Checkpoint? checkpoint, CancellationToken cancellationToken)
    {
        var hub = _definition.Trigger.EventHubName;
        var settings = host.EventHubs;
        var first = await gateway.ReadAsync(hub, partitionId, next, 1, settings.MaxEventBatchSize, options.IdleReadWait, cancellationToken);
        if (settings.MinEventBatchSize <= 1 || first.Count == 0 || first.Count >= settings.MinEventBatchSize)
        {
            return first;
        }

        // Fewer than minEventBatchSize: hold them and wait for more, up to maxWaitTime from now (when the events
        // were first held). The first invocation after start waits less, as GetAdjustedMaxWaitTime does: not at all
        // without a checkpoint, else only what remains of maxWaitTime since the checkpoint was written.
        var wait = settings.MaxWaitTime;
        if (firstInvocation)
        {
            var sinceCheckpoint = checkpoint is null ? TimeSpan.MaxValue : time.GetUtcNow() - checkpoint.LastModified;
            wait = sinceCheckpoint >= settings.MaxWaitTime ? TimeSpan.Zero : settings.MaxWaitTime - sinceCheckpoint;
        }

        if (wait <= TimeSpan.Zero)
        {
            return first;
        }

        var more = await gateway.ReadAsync(
            hub, partitionId, first[^1].SequenceNumber + 1, settings.MinEventBatchSize - first.Count, settings.MaxEventBatchSize - first.Count, wait, cancellationToken);
        if (more.Count == 0)
        {
            return first;
        }

        NoteRetentionGap(first[^1].SequenceNumber + 1, more[0].SequenceNumber);
        var batch = new List<ReceivedEvent>(first.Count + more.Count);
        batch.AddRange(first);
        batch.AddRange(more);
        return batch;
    }

    /// <summary>A read from <paramref name="expected"/> that starts later means retention removed the events in
    /// between before this consumer group read them (the log, like Event Hubs, reads on from its oldest retained event).
    /// Event Hubs says nothing either; here it is logged and counted, never silent.</summary>
    private void NoteRetentionGap(long expected, long found)
    {
        if (found <= expected)
        {
            return;
        }

        var lost = _health.CountRetentionGap(expected, found - 1);
        if (lost > 0)
        {
            FunctionsHostLog.RetentionGap(logger, _definition.Name, partitionId, _definition.Trigger.ConsumerGroup, found - lost, found - 1, lost);
        }
    }
}
