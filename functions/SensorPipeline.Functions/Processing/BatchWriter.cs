using System.Buffers;
using System.Collections.Concurrent;
using System.Text.Json;
using Microsoft.Extensions.Options;
using SensorPipeline.Core.DeadLetters;
using SensorPipeline.Core.DeviceStates;
using SensorPipeline.Core.GeoJson;
using SensorPipeline.Core.Processing;
using SensorPipeline.Core.Readings;
using SensorPipeline.Functions.DeviceStates;
using SensorPipeline.Functions.Options;
using SensorPipeline.Functions.Storage;

namespace SensorPipeline.Functions.Processing;

/// <summary>
/// Stores one processed batch of a processor function, in the order that keeps the promises: its readings (live or
/// archived), then the check for stale readings that are live already, then one device state per device handed to the
/// pending states (written within W by <see cref="DeviceStateFlusher"/>) under a current mark, then the dead letters. A
/// document the store refuses for good becomes a dead letter; anything systemic throws, so nothing is acknowledged.
/// </summary>
internal sealed class BatchWriter(
    ProcessorDefinition definition,
    StoreContainers containers,
    DocumentWriter writer,
    PendingDeviceStates pendingStates,
    PendingStatesMarks marks,
    DeadLetterStore deadLetters,
    LiveArchiveReconciler reconciler,
    IOptions<PipelineOptions> options)
{
    /// <summary>Writes one processed batch (or part of one) and adds what it stored to <paramref name="tally"/>.</summary>
    /// <param name="result">The processed envelopes.</param>
    /// <param name="now">The batch's first attempt: decides the redelivery check and stamps dead letters.</param>
    /// <param name="tally">What was stored, for the metrics at the commit point.</param>
    /// <param name="cancellationToken">The invocation's token.</param>
    public async Task<BatchTally> WriteAsync(ProcessResult result, DateTimeOffset now, BatchTally tally, CancellationToken cancellationToken)
    {
        var rejected = new ConcurrentBag<DeadLetter>();
        var readings = containers.For(result.Pending.Count);
        int live, archived, alsoLive, states;
        // Opened before the first reading is written: the mark's instant never passes a reading whose state is not durable.
        using (var scope = pendingStates.Open())
        {
            var stored = await WriteReadingsAsync(result, readings, rejected, cancellationToken);
            var liveAlready = await reconciler.ReconcileAsync(result, stored, now.ToUnixTimeMilliseconds(), readings, options.Value.WriteParallelism, cancellationToken);
            (live, archived, alsoLive) = CountStored(result, stored, liveAlready, tally);
            var handed = DeviceStatesOf(result, stored, liveAlready);
            pendingStates.Add(scope, handed);
            states = handed.Count;
        }

        // After the states are pending: a mark renewed now promises them, and a stopping instance refuses the commit.
        await marks.EnsureCurrentAsync(() => (pendingStates.StoredBefore(), pendingStates.Count), cancellationToken);
        var allDeadLetters = rejected.IsEmpty ? result.DeadLetters : [.. result.DeadLetters, .. rejected];
        await deadLetters.WriteAsync(allDeadLetters, now, cancellationToken);
        tally.Stored(new WriteCounts(live, archived, states, allDeadLetters.Count, alsoLive), allDeadLetters);
        return tally;
    }

    /// <summary>Writes a whole invocation's processed batch; internal for the benchmark, which measures exactly this path.</summary>
    internal async Task<WriteCounts> WriteAsync(ProcessResult result, DateTimeOffset now, CancellationToken cancellationToken) =>
        (await WriteAsync(result, now, new BatchTally(), cancellationToken)).Counts;

    /// <summary>
    /// Readings first, so a device's latest state never points at a reading that is not stored yet. A large phase goes
    /// through the bulk client, every write started at once in key-space order, so each partition key range's writes
    /// fill one batch request (<see cref="WritePhase"/>); each write still gets its own answer, classified as a point
    /// write's would be (transient retried, refused dead-lettered, systemic thrown). Returns which pending documents
    /// were stored.
    /// </summary>
    private async Task<bool[]> WriteReadingsAsync(ProcessResult result, ContainerSet readings, ConcurrentBag<DeadLetter> rejected, CancellationToken cancellationToken)
    {
        var stored = new bool[result.Pending.Count];
        var order = readings.IsBulk ? KeySpaceOrder.Of(result.Pending) : Indices(result.Pending.Count);
        await WritePhase.RunAsync(readings, order, options.Value.WriteParallelism, async (i, token) =>
        {
            var document = result.Pending[i];
            var container = document.Target == DocumentTarget.Live ? readings.Readings : readings.Archive;
            var outcome = await writer.UpsertAsync(container, document.DeviceId, result.Bytes(document), token);
            if (outcome.Result == WriteResult.Rejected)
            {
                rejected.Add(StoreRejection(result, document, $"{document.Id} → {container.Id}: {outcome.Detail}"));
                return;
            }

            stored[i] = true;
        }, cancellationToken);
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
    /// One state per device: its newest fresh reading or, newer-wins, its newest stale reading the redelivery check found
    /// live — the state a batch redelivered after its first attempt died between the readings and the devices never got.
    /// A stale reading only archived is never a state, and neither is a reading the store refused: then the device's
    /// newest reading that is stored live gives the state (<see cref="NewestStoredState"/>).
    /// </summary>
    private List<PendingState> DeviceStatesOf(ProcessResult result, bool[] stored, bool[]? liveAlready)
    {
        var chosen = result.DeviceWrites(liveAlready);
        var states = new List<PendingState>(chosen.Count);
        foreach (var latest in chosen)
        {
            if (IsStoredLive(result, stored, liveAlready, latest.PendingIndex))
            {
                var document = result.Pending[latest.PendingIndex];
                states.Add(new PendingState(latest.DeviceId, latest.Version, result.Documents.Slice(latest.DocumentOffset, latest.DocumentLength).ToArray(),
                    Refusal(result, document)));
            }
            else if (NewestStoredState(result, stored, liveAlready, latest.DeviceId) is { } fallback)
            {
                states.Add(fallback);
            }
        }

        return states;
    }

    /// <summary>Whether the reading of <c>Pending[index]</c> is stored in <c>readings</c>: written live now, or a stale one found live.</summary>
    private static bool IsStoredLive(ProcessResult result, bool[] stored, bool[]? liveAlready, int index) =>
        result.Pending[index].Target == DocumentTarget.Live ? stored[index] : liveAlready is not null && liveAlready[index];

    /// <summary>
    /// The rare case of a device whose chosen reading the store refused: its newest reading stored live in this batch,
    /// rendered from the stored document (as the recovery renders one), or null when it has none that may win.
    /// </summary>
    private PendingState? NewestStoredState(ProcessResult result, bool[] stored, bool[]? liveAlready, string deviceId)
    {
        PendingState? newest = null;
        var output = new ArrayBufferWriter<byte>(1024);
        using var json = new Utf8JsonWriter(output);
        for (var i = 0; i < result.Pending.Count; i++)
        {
            var document = result.Pending[i];
            if (document.DeviceId != deviceId || !IsStoredLive(result, stored, liveAlready, i))
            {
                continue;
            }

            output.ResetWrittenCount();
            json.Reset(output);
            if (StoredReadingState.TryWrite(result.Bytes(document).Span, options.Value.MaxClockSkew, json, out var state)
                && (newest is null || string.CompareOrdinal(state.Version, newest.Version) > 0))
            {
                newest = new PendingState(deviceId, state.Version, output.WrittenSpan.ToArray(), Refusal(result, document));
            }
        }

        return newest;
    }

    private StateRefusal Refusal(ProcessResult result, in PendingDocument document) =>
        new(definition.Stage, result.EnvelopePosition(document), document.ReadingIndex, result.ReadingBytes(document).ToArray(), document.Id);

    /// <summary>
    /// A document the store refused while its container took a known-good write. The dead letter holds the reading's
    /// original bytes (the document is rendered from them again: the detail names it), so <c>redrive</c> re-sends the
    /// reading after a fix and the pipeline writes the document, and the device's state through its guard. Its id is
    /// the reading's place: stage "&lt;stage&gt;-store", its envelope's position and its index in the envelope — the
    /// same for every redelivery, in any batch, and the same a refusal of the reading's device state gets.
    /// </summary>
    private DeadLetter StoreRejection(ProcessResult result, in PendingDocument document, string detail) =>
        new(definition.Stage + "-store", DeadLetterReason.RejectedByStore, result.EnvelopePosition(document), document.ReadingIndex, document.DeviceId,
            result.ReadingBytes(document).ToArray(), detail);

    private static int[] Indices(int count) => [.. Enumerable.Range(0, count)];
}
