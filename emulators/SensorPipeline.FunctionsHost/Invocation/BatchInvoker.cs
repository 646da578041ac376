using System.Buffers;
using System.Diagnostics;
using Microsoft.Extensions.Logging;
using SensorPipeline.FunctionsHost.Config;
using SensorPipeline.FunctionsHost.Hubs;
using SensorPipeline.FunctionsHost.Listeners;
using SensorPipeline.FunctionsHost.Status;

namespace SensorPipeline.FunctionsHost.Invocation;

/// <summary>Invokes one function with one partition's batches, one at a time: the request, host.json's retry policy,
/// functionTimeout, the handler's death, and the output bindings' appends (<see cref="IEventHubsGateway.AppendAsync"/>).
/// One per partition listener: it reuses one request buffer.</summary>
internal sealed class BatchInvoker(
    FunctionState function,
    string partitionId,
    HostSettings host,
    IEventHubsGateway gateway,
    HandlerClient client,
    TimeProvider time,
    ILogger logger) : IDisposable
{
    private readonly FunctionDefinition _definition = function.Definition;
    private readonly ArrayBufferWriter<byte> _body = new(64 * 1024);
    private readonly InvocationRequestWriter _writer = new();

    public void Dispose() => _writer.Dispose();

    /// <summary>Returns false when the partition was lost while retries remained: the batch is left to its new owner.</summary>
    public async Task<bool> InvokeWithRetriesAsync(IReadOnlyList<ReceivedEvent> events, bool checkpointAfter, Generation generation, CancellationToken lost)
    {
        var policy = _definition.Retry;
        var schedule = policy is null ? null : new RetrySchedule(policy, Random.Shared);
        var retry = policy is null ? null : new RetryState(0, policy.MaxRetryCount, null);
        while (true)
        {
            var invocationId = Guid.NewGuid();
            var batch = new InvocationBatch(_definition, partitionId, events, checkpointAfter, retry, time.GetUtcNow().UtcDateTime, Guid.NewGuid());
            var failure = await InvokeOnceAsync(batch, invocationId, generation);
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
    private async Task<Exception?> InvokeOnceAsync(InvocationBatch batch, Guid invocationId, Generation generation)
    {
        _body.ResetWrittenCount();
        _writer.Write(_body, batch);
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
