using System.Buffers;
using System.Diagnostics;
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
    private readonly ArrayBufferWriter<byte> _body = new(64 * 1024);
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
        using var writer = new InvocationRequestWriter();
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
            var finished = await InvokeWithRetriesAsync(writer, events, checkpointAfter, generation, lost);
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

    /// <summary>Returns false when the partition was lost while retries remained: the batch is left to its new owner.</summary>
    private async Task<bool> InvokeWithRetriesAsync(InvocationRequestWriter writer, IReadOnlyList<ReceivedEvent> events, bool checkpointAfter, Generation generation, CancellationToken lost)
    {
        var policy = _definition.Retry;
        var schedule = policy is null ? null : new RetrySchedule(policy, Random.Shared);
        var retry = policy is null ? null : new RetryState(0, policy.MaxRetryCount, null);
        while (true)
        {
            var invocationId = Guid.NewGuid();
            var batch = new InvocationBatch(_definition, partitionId, events, checkpointAfter, retry, time.GetUtcNow().UtcDateTime, Guid.NewGuid());
            var failure = await InvokeOnceAsync(writer, batch, invocationId, generation);
            if (failure is null)
            {
                function.CountSucceeded();
                return true;
            }

            function.CountFailed();
            FunctionsHostLog.InvocationFailed(logger, failure, _definition.Name, invocationId, partitionId, events.Count, events[0].SequenceNumber, events[^1].SequenceNumber);
            if (schedule is null || retry is null)
            {
                return true;
            }

            if (!schedule.CanRetry(retry.RetryCount))
            {
                FunctionsHostLog.RetriesExhausted(logger, _definition.Name, partitionId, retry.RetryCount + 1, events[^1].SequenceNumber);
                return true;
            }

            retry = new RetryState(retry.RetryCount + 1, retry.MaxRetryCount, failure);
            function.CountRetried();
            var delay = schedule.NextDelay();
            FunctionsHostLog.RetryScheduled(logger, _definition.Name, partitionId, delay, retry.RetryCount, retry.MaxRetryCount);
            using var waiting = CancellationTokenSource.CreateLinkedTokenSource(generation.Token, lost);
            try
            {
                await Task.Delay(delay, time, waiting.Token);
            }
            catch (OperationCanceledException) when (lost.IsCancellationRequested && !generation.Token.IsCancellationRequested)
            {
                return false;
            }
        }
    }

    /// <summary>One attempt. Returns the failure (null on success); throws OperationCanceledException when the
    /// generation ends — a restart or shutdown is not a failed invocation, and nothing may be checkpointed.</summary>
    private async Task<Exception?> InvokeOnceAsync(InvocationRequestWriter writer, InvocationBatch batch, Guid invocationId, Generation generation)
    {
        _body.ResetWrittenCount();
        writer.Write(_body, batch);
        using var timeout = host.FunctionTimeout is { } limit
            ? new CancellationTokenSource(limit, time)
            : new CancellationTokenSource();
        using var linked = CancellationTokenSource.CreateLinkedTokenSource(generation.Token, timeout.Token);
        try
        {
            var started = time.GetTimestamp();
            var result = await client.InvokeAsync(generation.HandlerPort, _definition, invocationId, _body, linked.Token);
            foreach (var line in result.Logs)
            {
                FunctionsHostLog.FunctionLog(logger, _definition.Name, line);
            }

            var sent = await SendOutputsAsync(result, generation.Token);
            function.Largest.Record(_body.WrittenCount, batch.Events.Count, time.GetElapsedTime(started));
            FunctionsHostLog.InvocationSucceeded(logger, _definition.Name, invocationId, partitionId, batch.Events.Count, sent);
            return null;
        }
        catch (OperationCanceledException) when (timeout.IsCancellationRequested && !generation.Token.IsCancellationRequested)
        {
            // functionTimeout: the Functions host cancels the invocation and restarts itself, handler included; the
            // batch is not checkpointed and is redelivered by the next generation.
            FunctionsHostLog.FunctionTimeout(logger, host.FunctionTimeout!.Value, _definition.Name, invocationId);
            generation.RequestRestart();
            throw new OperationCanceledException(generation.Token);
        }
        catch (HttpRequestException ex) when (ex.StatusCode is null)
        {
            // No HTTP answer. If the handler process died, this is a restart, not a failure of the function: wait for
            // the supervisor to end the generation so the batch is redelivered rather than checkpointed past.
            if (await HandlerDiedAsync(generation))
            {
                await Task.Delay(Timeout.InfiniteTimeSpan, generation.Token);
            }

            return ex;
        }
        catch (Exception ex) when (ex is not OperationCanceledException)
        {
            // Non-2xx, a body that is not an invocation result, an output that cannot be bound or sent: the host fails
            // the invocation (and sends none of the outputs not yet sent).
            return ex;
        }
    }

    private static async Task<bool> HandlerDiedAsync(Generation generation)
    {
        var finished = await Task.WhenAny(generation.HandlerExited, Task.Delay(TimeSpan.FromSeconds(2), generation.Token));
        return finished == generation.HandlerExited || generation.Token.IsCancellationRequested;
    }

    private async Task<int> SendOutputsAsync(InvocationResult result, CancellationToken cancellationToken)
    {
        var sent = 0;
        foreach ((var binding, var events) in result.Outputs)
        {
            // EventHubAsyncCollector: one batch per binding (no partition key → one partition chosen by the service),
            // a new batch when the current one is full, an event larger than a batch fails the invocation.
            var start = 0;
            long size = 0;
            for (var i = 0; i < events.Count; i++)
            {
                long eventSize = events[i].Length + EventOverheadBytes;
                if (eventSize > MaxBatchBytes)
                {
                    throw new InvalidOperationException($"Event is too large. Event is approximately {events[i].Length}b and max size is {MaxBatchBytes}b");
                }

                if (size + eventSize > MaxBatchBytes)
                {
                    await gateway.AppendAsync(binding.EventHubName, Slice(events, start, i), cancellationToken);
                    start = i;
                    size = 0;
                }

                size += eventSize;
            }

            if (start < events.Count)
            {
                await gateway.AppendAsync(binding.EventHubName, Slice(events, start, events.Count), cancellationToken);
            }

            sent += events.Count;
        }

        return sent;
    }

    // The AMQP framing an event adds inside a batch; enough to keep a batch under the 1 MB Standard-tier limit.
    private const int EventOverheadBytes = 64;
    private const int MaxBatchBytes = 1024 * 1024;

    private static List<ReadOnlyMemory<byte>> Slice(List<ReadOnlyMemory<byte>> events, int start, int end)
    {
        Debug.Assert(end > start, "a batch holds at least one event");
        return events.GetRange(start, end - start);
    }
}
