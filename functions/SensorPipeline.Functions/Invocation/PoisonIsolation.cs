using System.Globalization;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using SensorPipeline.Core.DeadLetters;
using SensorPipeline.Core.Readings;
using SensorPipeline.Core.Splitting;
using SensorPipeline.Functions.Endpoints;
using SensorPipeline.Functions.Options;
using SensorPipeline.Functions.Storage;
using SensorPipeline.Functions.Telemetry;

namespace SensorPipeline.Functions.Invocation;

/// <summary>
/// Tells a poison event from a systemic fault by evidence. A batch runs whole; a transient failure (the store
/// unavailable after the in-invocation retries, a timeout) fails the invocation as before — the host retries forever
/// and the checkpoint waits. Any other failure is counted in the <see cref="AttemptLedger"/>; once a batch has failed
/// <see cref="PipelineOptions.IsolateAfterAttempts"/> times, its events are bisected: each half runs on its own (a half
/// that succeeds is committed — writes are idempotent), a failing half is split again, down to single events.
/// <list type="bullet">
/// <item>Some, not all, events fail on their own: they are poison — dead-lettered (<c>failed-in-isolation</c>, the
/// failure as detail, the raw bytes) and the invocation succeeds, so the partition moves on.</item>
/// <item>Every event fails on its own (the store refuses everything: a role still propagating, a deleted container):
/// systemic — nothing is dead-lettered, the invocation fails so the host backs off and retries, and it is raised loudly
/// (an error log, the <c>SystemicFailures</c> metric, an alert).</item>
/// </list>
/// A transient failure during the bisection ends it: the batch is retried whole later and bisected again.
/// Cost: at most 2n − 1 runs of subsets for n events, only for a batch that already failed repeatedly.
/// </summary>
internal sealed class PoisonIsolation(AttemptLedger ledger, DeadLetterStore deadLetters, IOptions<PipelineOptions> options, TimeProvider clock,
    PipelineMetrics metrics, ILogger<PoisonIsolation> logger)
{
    /// <summary>Runs <paramref name="process"/> over the request's events, isolating poison as described above.</summary>
    /// <param name="function">The function name (ledger key, logs, metrics).</param>
    /// <param name="stage">The stage name stored in dead letters.</param>
    /// <param name="request">The invocation.</param>
    /// <param name="process">Processes and stores a subset completely, or throws; gets the first attempt's start time.</param>
    /// <param name="cancellationToken">The invocation's token.</param>
    /// <returns>The events dead-lettered as poison (empty almost always).</returns>
    public async Task<IReadOnlyList<DeadLetter>> RunAsync(string function, string stage, InvocationRequest request,
        Func<IReadOnlyList<InputEvent>, DateTimeOffset, CancellationToken, Task> process, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(request);
        ArgumentNullException.ThrowIfNull(process);
        var events = request.Events;
        if (events.Count == 0)
        {
            return [];
        }

        var partition = request.PartitionId;
        var now = clock.GetUtcNow();
        var attempt = await ledger.BeginAsync(function, partition, events[0].Position.SequenceNumber, now, cancellationToken);
        // The host's count survives nothing, the ledger's survives restarts; the larger one is the evidence.
        attempt = attempt with { Failures = Math.Max(attempt.Failures, request.RetryCount) };
        var first = attempt.FirstAttemptAt;
        try
        {
            await RunWatchedAsync(function, partition, attempt, () => process(events, first, cancellationToken), cancellationToken);
            await ledger.ClearAsync(function, partition, attempt, cancellationToken);
            return [];
        }
        catch (Exception e) when (IsIsolationCandidate(e, cancellationToken))
        {
            await ledger.RecordFailureAsync(function, partition, attempt, Describe(e), clock.GetUtcNow(), cancellationToken);
            var failures = attempt.Failures + 1;
            if (failures < options.Value.IsolateAfterAttempts)
            {
                throw;
            }

            FunctionsLog.IsolationStarted(logger, function, partition, attempt.FirstSequence, events.Count, failures, e);
            var poison = new List<(InputEvent Event, Exception Failure)>();
            await BisectAsync(events, 0, events.Count, e, poison, first, process, cancellationToken);
            if (poison.Count == events.Count)
            {
                FunctionsLog.SystemicFailure(logger, function, partition, attempt.FirstSequence, events.Count, failures, e);
                metrics.SystemicFailure(function);
                throw new SystemicFailureException(function, partition, attempt.FirstSequence, failures, e);
            }

            var letters = poison.Select(p => new DeadLetter(stage, DeadLetterReason.FailedInIsolation, p.Event.Position, null, null, p.Event.Body,
                string.Create(CultureInfo.InvariantCulture,
                    $"{failures} failed attempts of the batch at {partition}:{attempt.FirstSequence} ({events.Count} events); on its own: {Describe(p.Failure)}"))).ToList();
            await deadLetters.WriteAsync(letters, clock.GetUtcNow(), cancellationToken);
            FunctionsLog.PoisonIsolated(logger, function, partition, attempt.FirstSequence, letters.Count, events.Count);
            metrics.DeadLettered(function, letters);
            await ledger.ClearAsync(function, partition, attempt with { Failures = failures }, cancellationToken);
            return letters;
        }
    }

    /// <summary>
    /// Not transient and not the host's own cancellation: a failure a retry may never fix. Transient ones — the store
    /// unavailable after the in-invocation retries, timeouts — keep today's rule: retry forever, checkpoint held.
    /// </summary>
    internal static bool IsIsolationCandidate(Exception exception, CancellationToken cancellationToken) =>
        InvocationFailures.Unwrap(exception) switch
        {
            StoreUnavailableException unavailable => unavailable.Fault != StoreFault.Transient,
            OperationCanceledException => false,
            InvalidInvocationException => false, // the request's shape: no event is to blame
            _ => !cancellationToken.IsCancellationRequested,
        };

    private static async Task BisectAsync(IReadOnlyList<InputEvent> events, int start, int count, Exception failure, List<(InputEvent, Exception)> poison,
        DateTimeOffset first, Func<IReadOnlyList<InputEvent>, DateTimeOffset, CancellationToken, Task> process, CancellationToken cancellationToken)
    {
        if (count == 1)
        {
            poison.Add((events[start], failure));
            return;
        }

        var half = count / 2;
        foreach (var (from, length) in new[] { (start, half), (start + half, count - half) })
        {
            Exception? failed = null;
            try
            {
                await process(Slice(events, from, length), first, cancellationToken);
            }
            catch (Exception e) when (IsIsolationCandidate(e, cancellationToken))
            {
                failed = e;
            }

            if (failed is not null)
            {
                await BisectAsync(events, from, length, failed, poison, first, process, cancellationToken);
            }
        }
    }

    /// <summary>
    /// Runs one attempt; if it is still running after <see cref="AttemptLedger.SlowAttempt"/>, records it as failed first:
    /// should the host's timeout end it (and restart the handler), the count is already stored.
    /// </summary>
    private async Task RunWatchedAsync(string function, string partition, BatchAttempts attempt, Func<Task> run, CancellationToken cancellationToken)
    {
        var work = run();
        using var done = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        var slow = Task.Delay(AttemptLedger.SlowAttempt, clock, done.Token);
        if (await Task.WhenAny(work, slow) == slow && !slow.IsCanceled)
        {
            await ledger.RecordFailureAsync(function, partition, attempt, $"still running after {AttemptLedger.SlowAttempt} (recorded in case the host's timeout ends it)",
                clock.GetUtcNow(), cancellationToken);
        }

        await done.CancelAsync();
        await work;
    }

    private static InputEvent[] Slice(IReadOnlyList<InputEvent> events, int start, int count)
    {
        var slice = new InputEvent[count];
        for (var i = 0; i < count; i++)
        {
            slice[i] = events[start + i];
        }

        return slice;
    }

    private static string Describe(Exception exception)
    {
        var e = InvocationFailures.Unwrap(exception);
        var text = $"{e.GetType().Name}: {e.Message}";
        return text.Length <= 2000 ? text : text[..2000];
    }
}

/// <summary>Every event of a batch fails on its own: the fault is the store's or the configuration's, never the data's.</summary>
internal sealed class SystemicFailureException : Exception
{
    public SystemicFailureException(string function, string partition, long firstSequence, int failures, Exception cause)
        : base(string.Create(CultureInfo.InvariantCulture,
            $"Systemic failure: every event of the {function} batch at {partition}:{firstSequence} fails on its own ({failures} failed attempts; {cause?.GetType().Name}: {cause?.Message}). Nothing is dead-lettered; the host retries with back-off."), cause)
    {
    }

    public SystemicFailureException()
    {
    }

    public SystemicFailureException(string message)
        : base(message)
    {
    }

    public SystemicFailureException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
