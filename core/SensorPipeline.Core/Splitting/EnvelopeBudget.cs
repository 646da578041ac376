using System.Text;
using SensorPipeline.Core.Readings;
using SensorPipeline.Core.Wire;

namespace SensorPipeline.Core.Splitting;

/// <summary>
/// The one place the forward envelope's size arithmetic lives. Each envelope travels as one event whose body is the
/// <c>ForwardEnvelope</c>'s protobuf bytes, sent by the splitter with the Event Hubs client; an invocation emits as
/// many events as its readings need. Each envelope is cut when the next reading would push it past
/// <see cref="MaxEnvelopeBytes"/> or its count past <see cref="MaxReadingsPerEnvelope"/>: every event is under the
/// 1 MB Event Hubs limit by construction, whatever the ingestion events hold, and a processor invocation handles at
/// most <c>maxEventBatchSize × MaxReadingsPerEnvelope</c> readings.
/// </summary>
public sealed class EnvelopeBudget
{
    /// <summary>Event Hubs' maximum event size on Standard and Premium tiers: 1 MB (body, properties and AMQP framing; limits.json).</summary>
    public const int EventHubMaxEventBytes = PipelineLimits.EventHubMaxEventBytes;

    /// <summary>
    /// Headroom left under the 1 MB limit for what the Event Hubs client adds around our bytes
    /// (AMQP message header, annotations, framing: well under 1 KB in practice; 64 KiB is generous).
    /// </summary>
    public const int TransportHeadroomBytes = 64 * 1024;

    /// <summary>The largest event body the splitter ever emits: one envelope's protobuf bytes (983,040).</summary>
    public const int MaxEnvelopeBytes = EventHubMaxEventBytes - TransportHeadroomBytes;

    /// <summary>
    /// Readings per envelope at most (limits.json). This, not the byte limit, bounds a processor invocation: it handles
    /// at most maxEventBatchSize × 250 readings (500 with host.json as shipped), which keeps the invocation well inside
    /// functionTimeout at the store's slowest expected rate (docs/bounded-work.md).
    /// </summary>
    public const int MaxReadingsPerEnvelope = PipelineLimits.MaxReadingsPerEnvelope;

    /// <summary>Envelope fields outside the lists: kind (tag + 1-byte enum) and forwarded time (tag + ≤ 10-byte varint).</summary>
    public const int EnvelopeFixedBytes = 2 + 11;

    /// <summary>Longest partition id accepted in a source position (Event Hubs ids are decimal, "0".."1023").</summary>
    public const int MaxPartitionIdBytes = 32;

    /// <summary>Creates the budget for a host whose batches hold up to <paramref name="maxEventBatchSize"/> events.</summary>
    public EnvelopeBudget(int maxEventBatchSize)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(maxEventBatchSize, 1);
        MaxEventBatchSize = maxEventBatchSize;
    }

    /// <summary>host.json <c>extensions.eventHubs.maxEventBatchSize</c> this budget was made for.</summary>
    public int MaxEventBatchSize { get; }

    /// <summary>The most readings one processor invocation can receive: a full batch of full envelopes.</summary>
    public int MaxReadingsPerProcessorInvocation => MaxEventBatchSize * MaxReadingsPerEnvelope;

    /// <summary>
    /// The largest maxEventBatchSize the handler runs with (limits.json, which the packaging script and the planner
    /// read too): 64 × 250 = 16,000 readings (and as many device writes) per processor invocation already take ~51 s
    /// at 625 documents/s, a whole serverless container's rate.
    /// </summary>
    public const int MaxSupportedBatchSize = PipelineLimits.MaxEventBatchSize;

    /// <summary>Null when the batch size keeps invocations bounded; otherwise why not, naming the host.json setting, for a start-up failure.</summary>
    public string? Problem =>
        MaxEventBatchSize <= MaxSupportedBatchSize
            ? null
            : $"extensions.eventHubs.maxEventBatchSize = {MaxEventBatchSize} lets one processor invocation receive up to {MaxReadingsPerProcessorInvocation:N0} readings " +
              $"({MaxReadingsPerEnvelope} per envelope); at most {MaxSupportedBatchSize} keeps an invocation well inside functionTimeout (docs/bounded-work.md).";

    /// <summary>Bytes one reading of <paramref name="readingLength"/> takes as a ForwardedReading entry pointing at <paramref name="sourceIndex"/>.</summary>
    public static int ForwardedReadingBytes(int readingLength, int sourceIndex)
    {
        var inner = ProtoWriter.LengthDelimitedSize(1, readingLength) + 1 + ProtoWriter.VarintSize((ulong)Math.Max(0, sourceIndex));
        return ProtoWriter.LengthDelimitedSize(3, inner);
    }

    /// <summary>Bytes one SourcePosition entry takes in an envelope.</summary>
    public static int SourceEntryBytes(in SourcePosition source)
    {
        var inner = ProtoWriter.LengthDelimitedSize(1, Encoding.UTF8.GetByteCount(source.PartitionId))
            + 1 + ProtoWriter.VarintSize(unchecked((ulong)source.SequenceNumber))
            + 1 + ProtoWriter.VarintSize(unchecked((ulong)source.EnqueuedTimeUnixMs));
        return ProtoWriter.LengthDelimitedSize(2, inner);
    }

    /// <summary>
    /// True when a reading of <paramref name="readingLength"/> bytes fits an envelope on its own. Only a reading
    /// of about 983 KB (some 9,000 times a normal one, possible only with huge unknown fields) does not: its
    /// envelope could not travel in one event, so it is dead-lettered as oversize.
    /// </summary>
    public static bool FitsAlone(int readingLength, in SourcePosition source) =>
        EnvelopeFixedBytes + SourceEntryBytes(source) + ForwardedReadingBytes(readingLength, 0) <= MaxEnvelopeBytes;
}
