using SensorPipeline.Core.DeadLetters;
using SensorPipeline.Core.Readings;
using SensorPipeline.Core.Wire;
using SensorKind = SensorPipeline.Protos.SensorKind;

namespace SensorPipeline.Core.Splitting;

/// <summary>One ingestion event as the trigger delivered it.</summary>
public readonly record struct InputEvent(ReadOnlyMemory<byte> Body, SourcePosition Position);

/// <summary>One kind's share of a splitter invocation. Envelope memory is valid until the splitter's next <see cref="Splitter.Split"/>.</summary>
public sealed class KindSplit
{
    internal KindSplit(SensorKindDefinition definition, IReadOnlyList<PartitionEnvelopes> partitions, int readings)
    {
        Definition = definition;
        Partitions = partitions;
        Envelopes = [.. partitions.SelectMany(static g => g.Envelopes)];
        Readings = readings;
    }

    /// <summary>The kind.</summary>
    public SensorKindDefinition Definition { get; }

    /// <summary>The envelopes grouped by the partition of the kind's hub their devices go to (<see cref="DevicePartitioner"/>).</summary>
    public IReadOnlyList<PartitionEnvelopes> Partitions { get; }

    /// <summary>The envelopes (<c>ForwardEnvelope</c> bytes), one event each; none when no reading of the kind came in.</summary>
    public IReadOnlyList<ReadOnlyMemory<byte>> Envelopes { get; }

    /// <summary>Readings forwarded in <see cref="Envelopes"/>.</summary>
    public int Readings { get; }
}

/// <summary>What one splitter invocation produces. Envelope memory is valid until the splitter's next <see cref="Splitter.Split"/>.</summary>
public sealed class SplitResult
{
    internal SplitResult(IReadOnlyList<KindSplit> kinds, IReadOnlyList<DeadLetter> deadLetters, int readingsReceived)
    {
        Kinds = kinds;
        DeadLetters = deadLetters;
        ReadingsReceived = readingsReceived;
    }

    /// <summary>Each kind's envelopes, in the catalog's order (every kind, with or without readings).</summary>
    public IReadOnlyList<KindSplit> Kinds { get; }

    /// <summary>Events and readings that could not be forwarded, with reasons.</summary>
    public IReadOnlyList<DeadLetter> DeadLetters { get; }

    /// <summary>Readings found in events that decoded (forwarded + dead-lettered readings).</summary>
    public int ReadingsReceived { get; }

    /// <summary>The share of <paramref name="kind"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">For a kind the splitter's catalog does not hold.</exception>
    public KindSplit Of(SensorKind kind) =>
        Kinds.FirstOrDefault(k => k.Definition.Kind == kind) ?? throw new ArgumentOutOfRangeException(nameof(kind), kind, "not a kind of this splitter");
}

/// <summary>
/// The splitter's pure core: checks each ingestion event, validates and routes each reading by kind and by its device's
/// partition of that kind's hub (<see cref="DevicePartitioner"/>), and packs them into as many envelopes per kind and
/// partition as they need (<see cref="PartitionedEnvelopeWriter"/>). Accounting is exact: every reading of
/// every event ends up forwarded or in a dead letter, and every undecodable event in a dead letter. No event is too
/// large: any body the Event Hubs service accepts is split across envelopes.
/// Not thread-safe (it reuses its buffers); one per concurrent invocation.
/// </summary>
public sealed class Splitter
{
    /// <summary>The stage name stored in dead letters.</summary>
    public const string Stage = "splitter";

    /// <summary>
    /// Reading-level dead letters one event may produce. Beyond it the event's reading dead letters are replaced by one
    /// holding the whole body (<see cref="DeadLetterReason.ManyInvalidReadings"/>): a 1 MB event of tiny garbage readings
    /// would otherwise mean hundreds of thousands of writes in one invocation.
    /// </summary>
    public const int MaxReadingDeadLettersPerEvent = 100;

    private readonly SensorKindCatalog _kinds;

    // One writer per kind, indexed by kind number (the catalog's numbers are small); null where no kind has the number.
    private readonly PartitionedEnvelopeWriter?[] _writers;

    /// <summary>A splitter routing the kinds of <paramref name="kinds"/> (default: the product's, <see cref="SensorKindCatalog.Default"/>).</summary>
    public Splitter(SensorKindCatalog? kinds = null)
    {
        _kinds = kinds ?? SensorKindCatalog.Default;
        _writers = new PartitionedEnvelopeWriter?[_kinds.All.Max(static k => (int)k.Kind) + 1];
        foreach (var kind in _kinds.All)
        {
            _writers[(int)kind.Kind] = new PartitionedEnvelopeWriter(kind.Kind);
        }
    }

    /// <summary>
    /// Splits one invocation's events. Each kind's readings are grouped by their device's partition of its hub:
    /// <paramref name="partitionCounts"/> holds each hub's count in the catalog's order (absent: 1 each, one group, no affinity).
    /// </summary>
    public SplitResult Split(IReadOnlyList<InputEvent> events, long nowUnixMs, IReadOnlyList<int>? partitionCounts = null)
    {
        ArgumentNullException.ThrowIfNull(events);
        if (partitionCounts is not null && partitionCounts.Count != _kinds.All.Count)
        {
            throw new ArgumentException($"one partition count per kind ({_kinds.All.Count}), not {partitionCounts.Count}", nameof(partitionCounts));
        }

        for (var k = 0; k < _kinds.All.Count; k++)
        {
            _writers[(int)_kinds.All[k].Kind]!.Reset(nowUnixMs, partitionCounts?[k] ?? 1);
        }

        var deadLetters = new List<DeadLetter>();
        var received = 0;
        for (var e = 0; e < events.Count; e++)
        {
            var input = events[e];
            var body = input.Body.Span;
            var framing = ReadingBatchReader.TryCheckFraming(body, out var count);
            if (framing != DeadLetterReason.None)
            {
                deadLetters.Add(new DeadLetter(Stage, framing, input.Position, null, null, input.Body));
                continue;
            }

            received += count;
            var index = 0;
            var firstOfEvent = deadLetters.Count;
            foreach (var raw in ReadingBatchReader.EnumerateReadings(body))
            {
                Route(raw, e, index++, input, deadLetters);
            }

            var invalid = deadLetters.Count - firstOfEvent;
            if (invalid > MaxReadingDeadLettersPerEvent)
            {
                var unused = AsOneBatch(deadLetters, firstOfEvent, invalid);
                deadLetters.RemoveRange(firstOfEvent, invalid);
                deadLetters.Add(new DeadLetter(Stage, DeadLetterReason.ManyInvalidReadings, input.Position, null, null, unused,
                    $"{invalid} of {count} readings are invalid and kept here as one batch of their exact bytes; the other {count - invalid} were forwarded"));
            }
        }

        return new SplitResult(
            [.. _kinds.All.Select(k => _writers[(int)k.Kind]!).Select(w => new KindSplit(_kinds.Get(w.Kind), w.Complete(), w.ReadingCount))],
            deadLetters, received);
    }

    /// <summary>
    /// The readings of <paramref name="count"/> reading-level dead letters from <paramref name="first"/> as one ingestion
    /// batch (<c>ReadingBatch</c>, field 1 per reading) of their exact bytes: only what was not forwarded, so re-driving
    /// the letter can never forward a reading a second time (one archived at first would come back live, a duplicate).
    /// </summary>
    private static byte[] AsOneBatch(List<DeadLetter> letters, int first, int count)
    {
        var size = 0;
        for (var i = first; i < first + count; i++)
        {
            size += ProtoWriter.LengthDelimitedSize(1, letters[i].Payload.Length);
        }

        var batch = new System.Buffers.ArrayBufferWriter<byte>(size);
        for (var i = first; i < first + count; i++)
        {
            ProtoWriter.WriteLengthDelimitedField(batch, 1, letters[i].Payload.Span);
        }

        return batch.WrittenSpan.ToArray();
    }

    private void Route(ReadOnlySpan<byte> raw, int eventIndex, int readingIndex, in InputEvent input, List<DeadLetter> deadLetters)
    {
        var reason = ReadingDecoder.TryDecode(raw, _kinds, out var reading) ? ReadingValidator.Validate(reading) : DeadLetterReason.Undecodable;
        if (reason == DeadLetterReason.None)
        {
            // Validation leaves only kinds of the catalog, each with its writer.
            var writer = _writers[(int)reading.Kind]!;
            if (writer.TryAdd(reading.DeviceIdUtf8, raw, eventIndex, input.Position))
            {
                return;
            }

            reason = DeadLetterReason.Oversize;
        }

        var device = reason is DeadLetterReason.Undecodable or DeadLetterReason.MissingDeviceId or DeadLetterReason.InvalidDeviceId
            ? null
            : System.Text.Encoding.UTF8.GetString(reading.DeviceIdUtf8);
        var detail = reason == DeadLetterReason.Oversize
            ? $"the reading is {raw.Length} bytes; its envelope would not fit one {EnvelopeBudget.MaxEnvelopeBytes}-byte event"
            : null;
        deadLetters.Add(new DeadLetter(Stage, reason, input.Position, readingIndex, device, raw.ToArray(), detail));
    }
}
