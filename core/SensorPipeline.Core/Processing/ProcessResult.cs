using SensorPipeline.Core.DeadLetters;

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
/// One document ready to write: its bytes are <see cref="ProcessResult.Documents"/>[Offset..Offset+Length].
/// </summary>
public readonly record struct PendingDocument(
    DocumentTarget Target,
    string DeviceId,
    string Id,
    int Offset,
    int Length,
    ulong Sequence,
    long EnqueuedUnixMs,
    long ObservedUnixMs);

/// <summary>The newest reading of one device in a batch, for the guarded write to <c>devices</c>.</summary>
public readonly record struct DeviceLatest(
    string DeviceId,
    string Kind,
    ulong Sequence,
    DateTimeOffset ObservedAt,
    string Version,
    string ReadingId,
    double Longitude,
    double Latitude,
    double AltitudeM,
    long EnqueuedUnixMs,
    int DocumentOffset,
    int DocumentLength);

/// <summary>What one processor invocation must write. Valid until the processor's next call.</summary>
public sealed class ProcessResult
{
    internal ProcessResult(ReadOnlyMemory<byte> documents, List<PendingDocument> pending, List<DeviceLatest> latest,
        List<DeadLetter> deadLetters, int readingsReceived, int stale, long oldestEnqueuedUnixMs)
    {
        Documents = documents;
        Pending = pending;
        Latest = latest;
        DeadLetters = deadLetters;
        ReadingsReceived = readingsReceived;
        StaleReadings = stale;
        OldestEnqueuedUnixMs = oldestEnqueuedUnixMs;
    }

    /// <summary>Every document's UTF-8 JSON, back to back.</summary>
    public ReadOnlyMemory<byte> Documents { get; }

    /// <summary>Live and archive documents.</summary>
    public IReadOnlyList<PendingDocument> Pending { get; }

    /// <summary>One entry per device: its newest reading in this batch (coalesced, newer-wins).</summary>
    public IReadOnlyList<DeviceLatest> Latest { get; }

    public IReadOnlyList<DeadLetter> DeadLetters { get; }

    /// <summary>Readings in the envelopes (= live + archive + reading-level dead letters).</summary>
    public int ReadingsReceived { get; }

    public int StaleReadings { get; }

    /// <summary>Enqueued time of the oldest reading's ingestion event (freshness), or 0 when none.</summary>
    public long OldestEnqueuedUnixMs { get; }

    /// <summary>The bytes of one document.</summary>
    public ReadOnlyMemory<byte> Bytes(in PendingDocument document) => Documents.Slice(document.Offset, document.Length);
}
