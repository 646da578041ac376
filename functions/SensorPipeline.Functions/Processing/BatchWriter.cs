using System.Collections.Concurrent;
using Microsoft.Extensions.Options;
using SensorPipeline.Core.DeadLetters;
using SensorPipeline.Core.Processing;
using SensorPipeline.Core.Readings;
using SensorPipeline.Functions.Invocation;
using SensorPipeline.Functions.Options;
using SensorPipeline.Functions.Storage;

namespace SensorPipeline.Functions.Processing;

/// <summary>
/// Stores one processed batch of a processor function, in the order that keeps the promises: its readings (live or
/// archived), then the check for stale readings that are live already, then one device state per device, then the dead
/// letters. A document the store refuses for good becomes a dead letter; anything systemic throws, so nothing is
/// acknowledged.
/// </summary>
internal sealed class BatchWriter(
    ProcessorDefinition definition,
    StoreContainers containers,
    DocumentWriter writer,
    DeviceStateGuard devices,
    DeadLetterStore deadLetters,
    LiveArchiveReconciler reconciler,
    IOptions<PipelineOptions> options)
{
    /// <summary>Writes one processed batch (or part of one) and adds what it stored to <paramref name="tally"/>.</summary>
    /// <param name="result">The processed envelopes.</param>
    /// <param name="batchStart">The first envelope's position: store-rejection dead letters are numbered from it.</param>
    /// <param name="now">The batch's first attempt: decides the redelivery check and stamps dead letters.</param>
    /// <param name="tally">What was stored, for the metrics at the commit point.</param>
    /// <param name="cancellationToken">The invocation's token.</param>
    public async Task<BatchTally> WriteAsync(ProcessResult result, SourcePosition batchStart, DateTimeOffset now, BatchTally tally, CancellationToken cancellationToken)
    {
        var rejected = new ConcurrentBag<DeadLetter>();
        var readings = containers.For(result.Pending.Count);
        var stored = await WriteReadingsAsync(result, readings, batchStart, rejected, cancellationToken);
        var liveAlready = await reconciler.ReconcileAsync(result, stored, now.ToUnixTimeMilliseconds(), readings, options.Value.WriteParallelism, cancellationToken);
        var (live, archived, alsoLive) = CountStored(result, stored, liveAlready, tally);
        var (updated, superseded) = await WriteDeviceStatesAsync(result, liveAlready, batchStart, rejected, cancellationToken);

        var allDeadLetters = rejected.IsEmpty ? result.DeadLetters : [.. result.DeadLetters, .. rejected];
        await deadLetters.WriteAsync(allDeadLetters, now, cancellationToken);
        tally.Stored(new WriteCounts(live, archived, updated, superseded, allDeadLetters.Count, alsoLive), allDeadLetters);
        return tally;
    }

    /// <summary>Writes a whole invocation's processed batch; internal for the benchmark, which measures exactly this path.</summary>
    internal async Task<WriteCounts> WriteAsync(ProcessResult result, InvocationRequest request, DateTimeOffset now, CancellationToken cancellationToken) =>
        (await WriteAsync(result, request.Events.Count > 0 ? request.Events[0].Position : new SourcePosition(request.PartitionId, 0, 0),
            now, new BatchTally(), cancellationToken)).Counts;

    /// <summary>
    /// Readings first, so a device's latest state never points at a reading that is not stored yet. A large phase goes
    /// through the bulk client, every write started at once so they fill batch requests; each write still gets its own
    /// answer, classified as a point write's would be (transient retried, refused dead-lettered, systemic thrown).
    /// Returns which pending documents were stored.
    /// </summary>
    private async Task<bool[]> WriteReadingsAsync(ProcessResult result, ContainerSet readings, SourcePosition batchStart, ConcurrentBag<DeadLetter> rejected,
        CancellationToken cancellationToken)
    {
        var stored = new bool[result.Pending.Count];
        await Parallel.ForEachAsync(Indices(result.Pending.Count), Concurrency(readings, result.Pending.Count, cancellationToken), async (i, token) =>
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
        return stored;
    }

    /// <summary>Counts the stored documents as live, archived, or archived copies of readings already live, and adds
    /// each one's latency to <paramref name="tally"/>.</summary>
    private static (int Live, int Archived, int AlsoLive) CountStored(ProcessResult result, bool[] stored, bool[]? liveAlready, BatchTally tally)
    {
        var (live, archived, alsoLive) = (0, 0, 0);
        for (var i = 0; i < stored.Length; i++)
        {
            if (!stored[i])
            {
                continue;
            }

            var document = result.Pending[i];
            tally.Written(document.EnqueuedUnixMs, document.ObservedUnixMs);
            if (liveAlready is not null && liveAlready[i])
            {
                alsoLive++;
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

        return (live, archived, alsoLive);
    }

    /// <summary>
    /// One write per device: its newest fresh reading or, newer-wins, its newest stale reading the redelivery check found
    /// live — the state a batch redelivered after its first attempt died between the readings and the devices never got.
    /// A stale reading only archived is never a state. Found live means stored live: the order of the phases still holds.
    /// </summary>
    private async Task<(int Updated, int Superseded)> WriteDeviceStatesAsync(ProcessResult result, bool[]? liveAlready, SourcePosition batchStart,
        ConcurrentBag<DeadLetter> rejected, CancellationToken cancellationToken)
    {
        var states = result.DeviceWrites(liveAlready);
        var (updated, superseded) = (0, 0);
        var devicesSet = containers.For(states.Count);
        await Parallel.ForEachAsync(Indices(states.Count), Concurrency(devicesSet, states.Count, cancellationToken), async (i, token) =>
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
        return (updated, superseded);
    }

    private ParallelOptions Concurrency(ContainerSet set, int documents, CancellationToken cancellationToken) =>
        new() { MaxDegreeOfParallelism = set.Parallelism(documents, options.Value.WriteParallelism), CancellationToken = cancellationToken };

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
