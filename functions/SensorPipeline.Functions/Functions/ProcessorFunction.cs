using System.Collections.Concurrent;
using System.Globalization;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.ObjectPool;
using Microsoft.Extensions.Options;
using SensorPipeline.Core.DeadLetters;
using SensorPipeline.Core.Processing;
using SensorPipeline.Core.Readings;
using SensorPipeline.Core.Splitting;
using SensorPipeline.Functions.Invocation;
using SensorPipeline.Functions.Options;
using SensorPipeline.Functions.Storage;
using SensorPipeline.Functions.Telemetry;

namespace SensorPipeline.Functions.Functions;

/// <summary>
/// A processor function (weather or seismic): envelopes in; fresh readings to <c>readings</c>, stale ones to
/// <c>archive</c>, the newest reading per device to <c>devices</c> through the guarded write, and everything
/// unusable to <c>deadletters</c>. Answers 2xx only when every document is stored.
/// </summary>
internal sealed class ProcessorFunction(
    ProcessorDefinition definition,
    ObjectPool<EnvelopeProcessor> processors,
    EnvelopeBudget budget,
    StoreContainers containers,
    DocumentWriter writer,
    DeviceStateGuard devices,
    DeadLetterStore deadLetters,
    StraddleReconciler reconciler,
    PoisonIsolation isolation,
    IOptions<PipelineOptions> options,
    TimeProvider clock,
    PipelineMetrics metrics,
    ILogger<ProcessorFunction> logger)
{
    public async Task InvokeAsync(HttpContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        var cancellationToken = context.RequestAborted;
        using var request = await InvocationRequestReader.ReadAsync(context.Request, ProcessorDefinition.TriggerName, budget.MaxEventBatchSize, cancellationToken);
        var now = clock.GetUtcNow();
        // Every attempt reports its batch's age, a failing one too — a refused one included: a retried batch shows as a
        // growing age (the stall alarm).
        metrics.BatchArrived(definition.Name, request.PartitionId, request.Events, now);
        if (request.Refusal is { } refusal)
        {
            throw refusal;
        }

        var tally = new BatchTally();
        var poison = await isolation.RunAsync(definition.Name, definition.Stage, request,
            (events, firstAttempt, token) => ProcessAsync(events, request, firstAttempt, tally, token), cancellationToken);

        // Commit point: only now, with every reading, archived reading, device state and dead letter stored, do we
        // answer 2xx and let the host checkpoint the batch. Any failure above throws and answers non-2xx: the host
        // retries the batch (at-least-once), and the deterministic ids make the re-run overwrite, not duplicate.
        // Once the host has cancelled the call, nothing is acknowledged, even though everything was written.
        cancellationToken.ThrowIfCancellationRequested();
        // Counted once, at the commit: a failed attempt that wrote some readings before failing counts nothing.
        tally.Report(metrics, definition.Name, request.PartitionId, request.Events);
        var counts = tally.Counts;
        FunctionsLog.Processed(logger, definition.Name, request.PartitionId, request.Events.Count, tally.ReadingsReceived,
            counts.Live, counts.Archived, counts.DevicesUpdated, counts.DevicesSuperseded, counts.DeadLetters + poison.Count, request.RetryCount);
        var summary = string.Create(CultureInfo.InvariantCulture,
            $"{definition.Name}: {request.Events.Count} envelopes, {tally.ReadingsReceived} readings; live {counts.Live}, archived {counts.Archived}, devices {counts.DevicesUpdated} updated / {counts.DevicesSuperseded} superseded, dead letters {counts.DeadLetters}, stale copies of live readings {counts.RedundantStale}, poison envelopes {poison.Count}");
        await InvocationResponse.WriteAsync(context.Response, StatusCodes.Status200OK, [], [summary], cancellationToken);
    }

    /// <summary>
    /// Processes and stores some of the batch's envelopes (all of them, or a subset while isolating poison), judging
    /// staleness at the batch's first attempt so a re-run writes what the first attempt would have. Adds to
    /// <paramref name="tally"/> only when everything is stored.
    /// </summary>
    private async Task ProcessAsync(IReadOnlyList<InputEvent> envelopes, InvocationRequest request, DateTimeOffset firstAttempt, BatchTally tally, CancellationToken cancellationToken)
    {
        var processor = processors.Get();
        try
        {
            var result = processor.Process(envelopes, firstAttempt.ToUnixTimeMilliseconds());
            var part = new BatchTally();
            await WriteAsync(result, request, envelopes[0].Position, firstAttempt, part, cancellationToken);
            tally.Add(part, result.ReadingsReceived);
        }
        finally
        {
            // The documents live in the processor's buffer: it goes back to the pool only after every write finished.
            processors.Return(processor);
        }
    }

    /// <summary>Writes one processed batch; internal for the benchmark, which measures exactly this path.</summary>
    internal async Task<WriteCounts> WriteAsync(ProcessResult result, InvocationRequest request, DateTimeOffset now, CancellationToken cancellationToken) =>
        (await WriteAsync(result, request, request.Events.Count > 0 ? request.Events[0].Position : new SourcePosition(request.PartitionId, 0, 0),
            now, new BatchTally(), cancellationToken)).Counts;

    /// <summary>Writes one processed batch (or part of one) and adds what it stored to <paramref name="tally"/>.</summary>
    /// <param name="result">The processed envelopes.</param>
    /// <param name="request">The invocation.</param>
    /// <param name="batchStart">The first envelope's position: store-rejection dead letters are numbered from it.</param>
    /// <param name="now">The batch's first attempt: decides the straddle check and stamps dead letters.</param>
    /// <param name="tally">What was stored, for the metrics at the commit point.</param>
    /// <param name="cancellationToken">The invocation's token.</param>
    private async Task<BatchTally> WriteAsync(ProcessResult result, InvocationRequest request, SourcePosition batchStart, DateTimeOffset now, BatchTally tally,
        CancellationToken cancellationToken)
    {
        var pointParallelism = options.Value.WriteParallelism;
        var rejected = new ConcurrentBag<DeadLetter>();
        var stored = new bool[result.Pending.Count];

        // Readings first, so a device's latest state never points at a reading that is not stored yet. A large phase goes
        // through the bulk client, every write started at once so they fill batch requests; each write still gets its
        // own answer, classified as a point write's would be (transient retried, refused dead-lettered, systemic thrown).
        var readings = containers.For(result.Pending.Count);
        await Parallel.ForEachAsync(Indices(result.Pending.Count), Concurrency(readings, result.Pending.Count, pointParallelism, cancellationToken), async (i, token) =>
        {
            var document = result.Pending[i];
            var container = document.Target == DocumentTarget.Live ? readings.Readings : readings.Archive;
            var outcome = await writer.UpsertAsync(container, document.DeviceId, result.Bytes(document), token);
            if (outcome.Result == WriteResult.Rejected)
            {
                rejected.Add(StoreRejection(batchStart, i, document.DeviceId, result.ReadingBytes(document), $"{document.Id} → {container.Id}: {outcome.Detail}"));
                return;
            }

            stored[i] = true;
        });

        var redundantCopies = await reconciler.ReconcileAsync(result, stored, now.ToUnixTimeMilliseconds(), readings, pointParallelism, cancellationToken);
        var live = 0;
        var archived = 0;
        var redundant = 0;
        for (var i = 0; i < stored.Length; i++)
        {
            if (!stored[i])
            {
                continue;
            }

            var document = result.Pending[i];
            tally.Written(document.EnqueuedUnixMs, document.ObservedUnixMs);
            if (redundantCopies is not null && redundantCopies[i])
            {
                redundant++;
            }
            else if (document.Target == DocumentTarget.Live)
            {
                live++;
            }
            else
            {
                archived++;
            }
        }

        // One write per device: its newest fresh reading or, newer-wins, its newest stale reading the straddle check found
        // live — the state a batch redelivered after its first attempt died between the readings and the devices never got.
        // A stale reading only archived is never a state. Found live means stored live: the order above still holds.
        var states = result.DeviceWrites(redundantCopies);
        var updated = 0;
        var superseded = 0;
        var devicesSet = containers.For(states.Count);
        await Parallel.ForEachAsync(Indices(states.Count), Concurrency(devicesSet, states.Count, pointParallelism, cancellationToken), async (i, token) =>
        {
            var latest = states[i];
            var bytes = result.Documents.Slice(latest.DocumentOffset, latest.DocumentLength);
            var outcome = await devices.WriteAsync(devicesSet.Devices, latest, bytes, token);
            switch (outcome.Result)
            {
                case WriteResult.Written:
                    Interlocked.Increment(ref updated);
                    break;
                case WriteResult.Superseded:
                    Interlocked.Increment(ref superseded);
                    break;
                default:
                    rejected.Add(StoreRejection(batchStart, result.Pending.Count + i, latest.DeviceId, result.ReadingBytes(latest), $"device {latest.DeviceId} ({latest.ReadingId}) → {containers.Devices.Id}: {outcome.Detail}"));
                    break;
            }
        });

        var allDeadLetters = rejected.IsEmpty ? result.DeadLetters : [.. result.DeadLetters, .. rejected];
        await deadLetters.WriteAsync(allDeadLetters, now, cancellationToken);
        tally.Stored(new WriteCounts(live, archived, updated, superseded, allDeadLetters.Count, redundant), allDeadLetters);
        return tally;
    }

    private static ParallelOptions Concurrency(ContainerSet set, int documents, int pointParallelism, CancellationToken cancellationToken) =>
        new() { MaxDegreeOfParallelism = set.Parallelism(documents, pointParallelism), CancellationToken = cancellationToken };

    /// <summary>
    /// A document the store refused while its container took a known-good write. The dead letter holds the reading's
    /// original bytes (the document is rendered from them again: the detail names it), so <c>redrive</c> re-sends the
    /// reading after a fix and the pipeline writes the document, and the device's state through its guard. Its id is
    /// deterministic for a redelivered batch: stage "&lt;stage&gt;-store", the batch's first envelope position and the
    /// document's index in the batch.
    /// </summary>
    private DeadLetter StoreRejection(SourcePosition batchStart, int index, string deviceId, ReadOnlyMemory<byte> reading, string detail) =>
        new(definition.Stage + "-store", DeadLetterReason.RejectedByStore, batchStart, index, deviceId, reading.ToArray(), detail);

    private static IEnumerable<int> Indices(int count) => Enumerable.Range(0, count);
}

/// <summary>What one processor invocation stored.</summary>
/// <param name="Live">Readings written to <c>readings</c>.</param>
/// <param name="Archived">Stale readings written to <c>archive</c> (and not also live).</param>
/// <param name="DevicesUpdated">Device states moved forward.</param>
/// <param name="DevicesSuperseded">Device writes a newer stored state won.</param>
/// <param name="DeadLetters">Dead letters stored.</param>
/// <param name="RedundantStale">Stale copies of readings that were already live (a redelivery straddling the max age), removed from the archive.</param>
internal readonly record struct WriteCounts(int Live, int Archived, int DevicesUpdated, int DevicesSuperseded, int DeadLetters, int RedundantStale);
