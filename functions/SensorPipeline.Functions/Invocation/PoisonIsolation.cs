using System.Collections.Concurrent;
using System.Globalization;
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
/// Tells a poison event from a fault of the store by evidence, with one rule for any batch size. A batch runs whole; a
/// failure of the store — transient (unavailable after the in-invocation retries, a timeout) or systemic (it refused a
/// known-good write to the same container too, <see cref="StoreCanary"/>) — fails the invocation: the host backs off and
/// retries forever, the checkpoint waits, and a systemic one is raised loudly (an error log, the <c>SystemicFailures</c>
/// metric, an alert). The store's refusal of one document never reaches here: it is dead-lettered where it is judged.
/// Any other failure — the handler's own code failing on an event — is counted in the <see cref="AttemptLedger"/>; once
/// a batch has failed <see cref="PipelineOptions.IsolateAfterAttempts"/> times, its events are bisected: each half runs
/// on its own (a half that succeeds is committed — writes are idempotent), a failing half is split again, down to single
/// events. Every event that fails on its own is poison — dead-lettered (<c>failed-in-isolation</c>, the failure as detail,
/// the raw bytes) and the invocation succeeds, so the partition moves on; a batch of one whose event fails is that
/// event failing on its own. Unless the batches before it failed whole too: when <see cref="PipelineOptions.SystemicAfterWhollyFailedBatches"/>
/// batches of a function in a row (any partitions) have every event failing on its own, it is not the events but the
/// handler or its environment (a bug on every event, a missing dependency): systemic, as a store refusing everything —
/// nothing dead-lettered, the batch kept and retried, raised loudly — until a batch commits again. A lone batch of poison
/// (one or two envelopes) is still dead-lettered, so poison never stalls a partition; a broken handler costs at most
/// that many batches of dead letters (re-drivable), not the whole stream.
/// A store failure during the bisection ends it: the batch is retried whole later and bisected again.
/// Cost: at most 2n − 1 runs of subsets for n events, only for a batch that already failed repeatedly.
/// </summary>
internal sealed class PoisonIsolation(AttemptLedger ledger, DeadLetterStore deadLetters, IOptions<PipelineOptions> options, TimeProvider clock,
    PipelineMetrics metrics, ILogger<PoisonIsolation> logger)
{
    private readonly ConcurrentDictionary<string, int> _whollyFailed = new(StringComparer.Ordinal);

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
        // The ledger's count only: the host's RetryCount also counts the transient failures of an outage, which say
        // nothing against an event (and it restarts at 0 with the host, which the ledger survives).
        var attempt = await ledger.BeginAsync(function, partition, events[0].Position.SequenceNumber, now, cancellationToken);
        var first = attempt.FirstAttemptAt;
        try
        {
            await RunWatchedAsync(function, partition, attempt, () => process(events, first, cancellationToken), cancellationToken);
            await ledger.ClearAsync(function, partition, attempt, cancellationToken);
            EndWhollyFailedRun(function);
            return [];
        }
        catch (Exception e) when (InvocationFailures.Unwrap(e) is StoreUnavailableException { Fault: StoreFault.Systemic } refused)
        {
            // Not logged here: the endpoint logs every failed invocation once; this says where.
            throw new SystemicFailureException(string.Create(CultureInfo.InvariantCulture,
                $"SYSTEMIC FAILURE {function} partition {partition}, the {events.Count}-event batch at sequence {attempt.FirstSequence}: {refused.Message}"), refused);
        }
        catch (Exception e) when (IsIsolationCandidate(e, cancellationToken))
        {
            await ledger.RecordFailureAsync(function, partition, attempt, Describe(e), clock.GetUtcNow(), cancellationToken);
            var failures = attempt.Failures + 1;
            if (failures < options.Value.IsolateAfterAttempts)
            {
                throw;
            }

            return await IsolateAsync(function, stage, request, attempt with { Failures = failures }, e, process, cancellationToken);
        }
    }

    /// <summary>
    /// Bisects a batch that failed <see cref="PipelineOptions.IsolateAfterAttempts"/> times: what fails alone is poison,
    /// dead-lettered, unless every event failed alone as in the batches before it (<see cref="PipelineOptions.SystemicAfterWhollyFailedBatches"/>).
    /// </summary>
    private async Task<IReadOnlyList<DeadLetter>> IsolateAsync(string function, string stage, InvocationRequest request, BatchAttempts attempt, Exception failure,
        Func<IReadOnlyList<InputEvent>, DateTimeOffset, CancellationToken, Task> process, CancellationToken cancellationToken)
    {
        var events = request.Events;
        var partition = request.PartitionId;
        FunctionsLog.IsolationStarted(logger, function, partition, attempt.FirstSequence, events.Count, attempt.Failures, failure);
        var poison = new List<(InputEvent Event, Exception Failure)>();
        await BisectAsync(events, 0, events.Count, failure, poison, attempt.FirstAttemptAt, process, cancellationToken);
        if (poison.Count < events.Count)
        {
            EndWhollyFailedRun(function);
        }
        else if (WhollyFailedInARow(function) is var inARow && inARow >= options.Value.SystemicAfterWhollyFailedBatches)
        {
            // Not the events: the handler or its environment. Kept (the ledger's count stays, so every retry is bisected
            // again — one success ends it), retried with back-off, and loud.
            throw new SystemicFailureException(string.Create(CultureInfo.InvariantCulture,
                $"SYSTEMIC FAILURE {function} partition {partition}, the {events.Count}-event batch at sequence {attempt.FirstSequence}: every event failed on its own, in {inARow} batches in a row — the handler or its environment is at fault, not the events. Nothing is dead-lettered; the host retries with back-off. {Describe(failure)}"),
                failure);
        }

        var letters = poison.Select(p => new DeadLetter(stage, DeadLetterReason.FailedInIsolation, p.Event.Position, null, null, p.Event.Body,
            string.Create(CultureInfo.InvariantCulture,
                $"{attempt.Failures} failed attempts of the batch at {partition}:{attempt.FirstSequence} ({events.Count} events); on its own: {Describe(p.Failure)}"))).ToList();
        await deadLetters.WriteAsync(letters, clock.GetUtcNow(), cancellationToken);
        FunctionsLog.PoisonIsolated(logger, function, partition, attempt.FirstSequence, letters.Count, events.Count);
        metrics.DeadLettered(function, letters);
        await ledger.ClearAsync(function, partition, attempt, cancellationToken);
        return letters;
    }

    /// <summary>One more batch of <paramref name="function"/> whose every event failed on its own: how many in a row now.</summary>
    private int WhollyFailedInARow(string function) => _whollyFailed.AddOrUpdate(function, 1, static (_, inARow) => inARow + 1);

    /// <summary>A batch of <paramref name="function"/> committed something: the run of wholly failed batches ends.</summary>
    private void EndWhollyFailedRun(string function)
    {
        if (_whollyFailed.TryGetValue(function, out var inARow) && inARow != 0)
        {
            _whollyFailed[function] = 0;
        }
    }

    /// <summary>
    /// A failure that may be an event's: not the store's (unavailable, refusing a known-good write too, or any store
    /// exception the writers did not judge — never the data's fault; retried forever, checkpoint held), not the request's
    /// shape, not the host's own cancellation.
    /// </summary>
    internal static bool IsIsolationCandidate(Exception exception, CancellationToken cancellationToken) =>
        InvocationFailures.Unwrap(exception) switch
        {
            StoreUnavailableException => false,
            // Refusals about one document come back as outcomes the canary judged; a store exception that escapes the
            // writers (a token fetch that failed, a container gone) is the store's, never an event's.
            Microsoft.Azure.Cosmos.CosmosException => false,
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
