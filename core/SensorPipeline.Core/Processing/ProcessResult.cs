using SensorPipeline.Core.DeadLetters;
using SensorPipeline.Core.DeviceStates;
using SensorPipeline.Core.Policies;
using SensorPipeline.Core.Readings;
using SensorPipeline.Core.Splitting;

namespace SensorPipeline.Core.Processing;

/// <summary>Where a processed reading's document goes.</summary>
public enum DocumentTarget
{
    /// <summary>The live view: container <c>readings</c>.</summary>
    Live,

    /// <summary>Stale: container <c>archive</c>.</summary>
    Archive,
}

/// <summary>
/// One document ready to write: its bytes are <see cref="ProcessResult.Documents"/>[Offset..Offset+Length]; the reading it
/// was rendered from is entry <see cref="ReadingIndex"/> of envelope <see cref="EnvelopeIndex"/> of the batch (what a
/// store refusal dead-letters, so it can be re-driven: <see cref="ProcessResult.ReadingBytes(in PendingDocument)"/>).
/// </summary>
public readonly record struct PendingDocument(
    DocumentTarget Target,
    string DeviceId,
    string Id,
    int Offset,
    int Length,
    ulong Sequence,
    long EnqueuedUnixMs,
    long ObservedUnixMs,
    int EnvelopeIndex = 0,
    int ReadingIndex = 0);

/// <summary>What one processor invocation must write. Valid until the processor's next call.</summary>
public sealed class ProcessResult
{
    internal ProcessResult(ReadOnlyMemory<byte> documents, IReadOnlyList<InputEvent> envelopes, List<PendingDocument> pending, List<DeviceLatest> latest,
        List<StaleDeviceState> staleStates, List<DeadLetter> deadLetters, int readingsReceived, int stale, long oldestEnqueuedUnixMs)
    {
        Documents = documents;
        _envelopes = envelopes;
        Pending = pending;
        Latest = latest;
        StaleStates = staleStates;
        DeadLetters = deadLetters;
        ReadingsReceived = readingsReceived;
        StaleReadings = stale;
        OldestEnqueuedUnixMs = oldestEnqueuedUnixMs;
    }

    private readonly IReadOnlyList<InputEvent> _envelopes;

    /// <summary>Every document's UTF-8 JSON, back to back.</summary>
    public ReadOnlyMemory<byte> Documents { get; }

    /// <summary>Live and archive documents.</summary>
    public IReadOnlyList<PendingDocument> Pending { get; }

    /// <summary>One entry per device: its newest reading in this batch (coalesced, newer-wins).</summary>
    public IReadOnlyList<DeviceLatest> Latest { get; }

    /// <summary>
    /// One entry per stale reading that may win (its observed time within the clock skew), in <see cref="Pending"/> order,
    /// not coalesced: which of them count depends on which readings the store already holds live.
    /// </summary>
    public IReadOnlyList<StaleDeviceState> StaleStates { get; }

    public IReadOnlyList<DeadLetter> DeadLetters { get; }

    /// <summary>Readings in the envelopes (= live + archive + reading-level dead letters).</summary>
    public int ReadingsReceived { get; }

    public int StaleReadings { get; }

    /// <summary>Enqueued time of the oldest reading's ingestion event (freshness), or 0 when none.</summary>
    public long OldestEnqueuedUnixMs { get; }

    /// <summary>The bytes of one document.</summary>
    public ReadOnlyMemory<byte> Bytes(in PendingDocument document) => Documents.Slice(document.Offset, document.Length);

    /// <summary>
    /// The original bytes of the reading <paramref name="document"/> was rendered from, decoded again from its envelope:
    /// only a store refusal needs them, so the common path keeps no copy.
    /// </summary>
    public ReadOnlyMemory<byte> ReadingBytes(in PendingDocument document) => ForwardedReading(document.EnvelopeIndex, document.ReadingIndex);

    /// <summary>The position of the envelope <paramref name="document"/>'s reading came in: with its
    /// <see cref="PendingDocument.ReadingIndex"/>, the reading's place, the same for every redelivery in any batch.</summary>
    public SourcePosition EnvelopePosition(in PendingDocument document) => _envelopes[document.EnvelopeIndex].Position;

    /// <summary>The original bytes of the reading <paramref name="state"/> was rendered from (as for a document).</summary>
    public ReadOnlyMemory<byte> ReadingBytes(in DeviceLatest state) => ForwardedReading(state.EnvelopeIndex, state.ReadingIndex);

    /// <summary>
    /// The device writes of the invocation: one per device, the newer-wins choice between its fresh readings
    /// (<see cref="Latest"/>) and those of its stale readings found already live (<paramref name="liveStale"/>[i] for
    /// <c>Pending[i]</c>; null when none). A stale reading that is only archived never becomes a device's state; one that
    /// is live is the state a batch redelivered after its first attempt died between the readings and the devices would
    /// otherwise never get. Returns <see cref="Latest"/> itself when no stale reading is live.
    /// </summary>
    public IReadOnlyList<DeviceLatest> DeviceWrites(IReadOnlyList<bool>? liveStale)
    {
        if (liveStale is null || StaleStates.Count == 0)
        {
            return Latest;
        }

        if (liveStale.Count != Pending.Count)
        {
            throw new ArgumentException($"{liveStale.Count} flags for {Pending.Count} pending documents.", nameof(liveStale));
        }

        List<DeviceLatest>? writes = null;
        Dictionary<string, int>? slots = null;
        foreach (var (index, state) in StaleStates)
        {
            if (!liveStale[index])
            {
                continue;
            }

            if (writes is null || slots is null)
            {
                writes = [.. Latest];
                slots = new Dictionary<string, int>(writes.Count, StringComparer.Ordinal);
                for (var i = 0; i < writes.Count; i++)
                {
                    slots[writes[i].DeviceId] = i;
                }
            }

            if (!slots.TryGetValue(state.DeviceId, out var slot))
            {
                slots[state.DeviceId] = writes.Count;
                writes.Add(state);
            }
            else if (NewerWins.Compare(state.Sequence, state.ObservedAt, writes[slot].Sequence, writes[slot].ObservedAt) > 0)
            {
                writes[slot] = state;
            }
        }

        return writes ?? Latest;
    }

    private byte[] ForwardedReading(int envelopeIndex, int readingIndex)
    {
        var index = 0;
        foreach (var entry in EnvelopeReader.EnumerateReadings(_envelopes[envelopeIndex].Body.Span))
        {
            // Its source index was checked when it was processed.
            if (index++ == readingIndex && EnvelopeReader.TryReadForwardedReading(entry, int.MaxValue, out var reading, out _))
            {
                return reading.ToArray();
            }
        }

        throw new InvalidOperationException($"Envelope {envelopeIndex} of the batch has no reading {readingIndex}: it is not the envelope the document was rendered from.");
    }
}
