using SensorPipeline.Core.Wire;

namespace SensorPipeline.Core.Splitting;

/// <summary>
/// The one place the forward envelope's byte arithmetic lives. A splitter invocation turns up to
/// <c>maxEventBatchSize</c> ingestion events into one envelope per kind, and an envelope must fit in
/// one Event Hubs event. Giving every ingestion event an equal share of the envelope makes that true
/// by construction: an event whose readings would take more than its share is dead-lettered as
/// oversize, so no envelope can exceed <see cref="EnvelopeLimitBytes"/> whatever the batch holds.
/// </summary>
public sealed class EnvelopeBudget
{
    /// <summary>Event Hubs' maximum event size on Standard and Premium tiers: 1 MB.</summary>
    public const int EventHubMaxEventBytes = 1024 * 1024;

    /// <summary>
    /// Headroom left under the 1 MB limit for what the output binding adds around our bytes
    /// (AMQP message header, annotations, framing: well under 1 KB in practice; 64 KiB is generous).
    /// </summary>
    public const int TransportHeadroomBytes = 64 * 1024;

    /// <summary>The largest envelope body the splitter will ever emit.</summary>
    public const int EnvelopeLimitBytes = EventHubMaxEventBytes - TransportHeadroomBytes;

    /// <summary>Envelope fields outside the lists: kind (tag + 1-byte enum) and forwarded time (tag + ≤ 10-byte varint).</summary>
    public const int EnvelopeFixedBytes = 2 + 11;

    /// <summary>Longest partition id accepted in a source position (Event Hubs ids are decimal, "0".."1023").</summary>
    public const int MaxPartitionIdBytes = 32;

    /// <summary>One SourcePosition entry at its largest: tag + length + partition id field + two int64 varint fields.</summary>
    public const int MaxSourceEntryBytes = 1 + 1 + (1 + 1 + MaxPartitionIdBytes) + (1 + 10) + (1 + 10);

    /// <summary>The smallest per-event share worth running with; below it nearly every event would be dead-lettered.</summary>
    public const int MinimumPerEventBytes = 1024;

    /// <summary>Creates the budget for a host whose batches hold up to <paramref name="maxEventBatchSize"/> events.</summary>
    public EnvelopeBudget(int maxEventBatchSize)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(maxEventBatchSize, 1);
        MaxEventBatchSize = maxEventBatchSize;
        PerEventBytes = (EnvelopeLimitBytes - EnvelopeFixedBytes) / maxEventBatchSize;
    }

    /// <summary>host.json <c>extensions.eventHubs.maxEventBatchSize</c> this budget was made for.</summary>
    public int MaxEventBatchSize { get; }

    /// <summary>Bytes of envelope one ingestion event may take: its source entry plus its forwarded readings.</summary>
    public int PerEventBytes { get; }

    /// <summary>Largest source index an envelope can hold (one source per event of the batch).</summary>
    public int MaxSourceIndex => MaxEventBatchSize - 1;

    /// <summary>
    /// Null when the budget is usable; otherwise why not, naming the host.json setting, for a start-up failure.
    /// </summary>
    public string? Problem =>
        PerEventBytes >= MinimumPerEventBytes
            ? null
            : $"host.json extensions.eventHubs.maxEventBatchSize = {MaxEventBatchSize} leaves each ingestion event only {PerEventBytes} bytes " +
              $"of the {EnvelopeLimitBytes}-byte forward envelope (minimum {MinimumPerEventBytes}); lower maxEventBatchSize to at most " +
              $"{(EnvelopeLimitBytes - EnvelopeFixedBytes) / MinimumPerEventBytes}.";

    /// <summary>Bytes one reading of <paramref name="readingLength"/> takes as a ForwardedReading entry, at the worst source index.</summary>
    public static int ForwardedReadingBytes(int readingLength, int maxSourceIndex)
    {
        var inner = ProtoWriter.LengthDelimitedSize(1, readingLength) + 1 + ProtoWriter.VarintSize((ulong)Math.Max(0, maxSourceIndex));
        return ProtoWriter.LengthDelimitedSize(3, inner);
    }

    /// <summary>True when an event whose readings take <paramref name="forwardedReadingBytes"/> fits its share.</summary>
    public bool Fits(long forwardedReadingBytes) => MaxSourceEntryBytes + forwardedReadingBytes <= PerEventBytes;
}
