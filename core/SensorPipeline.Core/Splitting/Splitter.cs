using SensorPipeline.Core.DeadLetters;
using SensorPipeline.Core.Readings;
using SensorPipeline.Core.Wire;
using SensorKind = SensorPipeline.Protos.SensorKind;

namespace SensorPipeline.Core.Splitting;

/// <summary>One ingestion event as the trigger delivered it.</summary>
public readonly record struct InputEvent(ReadOnlyMemory<byte> Body, SourcePosition Position);

/// <summary>What one splitter invocation produces. Envelope memory is valid until the splitter's next <see cref="Splitter.Split"/>.</summary>
public sealed class SplitResult
{
    internal SplitResult(IReadOnlyList<PartitionEnvelopes> weather, int weatherReadings, IReadOnlyList<PartitionEnvelopes> seismic, int seismicReadings,
        IReadOnlyList<DeadLetter> deadLetters, int readingsReceived)
    {
        WeatherPartitions = weather;
        Weather = Flatten(weather);
        WeatherReadings = weatherReadings;
        SeismicPartitions = seismic;
        Seismic = Flatten(seismic);
        SeismicReadings = seismicReadings;
        DeadLetters = deadLetters;
        ReadingsReceived = readingsReceived;
    }

    /// <summary>The weather envelopes grouped by the weather hub partition their devices go to (<see cref="DevicePartitioner"/>).</summary>
    public IReadOnlyList<PartitionEnvelopes> WeatherPartitions { get; }

    /// <summary>The seismic envelopes grouped by the seismic hub partition their devices go to.</summary>
    public IReadOnlyList<PartitionEnvelopes> SeismicPartitions { get; }

    /// <summary>The weather envelopes (<c>ForwardEnvelope</c> bytes), one event each; none when no weather reading came in.</summary>
    public IReadOnlyList<ReadOnlyMemory<byte>> Weather { get; }
    public int WeatherReadings { get; }

    /// <summary>The seismic envelopes, one event each; none when no seismic reading came in.</summary>
    public IReadOnlyList<ReadOnlyMemory<byte>> Seismic { get; }
    public int SeismicReadings { get; }

    /// <summary>Events and readings that could not be forwarded, with reasons.</summary>
    public IReadOnlyList<DeadLetter> DeadLetters { get; }

    /// <summary>Readings found in events that decoded (forwarded + dead-lettered readings).</summary>
    public int ReadingsReceived { get; }

    private static ReadOnlyMemory<byte>[] Flatten(IReadOnlyList<PartitionEnvelopes> groups) => [.. groups.SelectMany(static g => g.Envelopes)];
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

    private readonly PartitionedEnvelopeWriter _weather = new(SensorKind.Weather);
    private readonly PartitionedEnvelopeWriter _seismic = new(SensorKind.Seismic);

    /// <summary>
    /// Splits one invocation's events. Each kind's readings are grouped by their device's partition among
    /// <paramref name="weatherPartitions"/> or <paramref name="seismicPartitions"/> (1: one group, no affinity).
    /// </summary>
    public SplitResult Split(IReadOnlyList<InputEvent> events, long nowUnixMs, int weatherPartitions = 1, int seismicPartitions = 1)
    {
        ArgumentNullException.ThrowIfNull(events);
        _weather.Reset(nowUnixMs, weatherPartitions);
        _seismic.Reset(nowUnixMs, seismicPartitions);
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

        return new SplitResult(_weather.Complete(), _weather.ReadingCount, _seismic.Complete(), _seismic.ReadingCount, deadLetters, received);
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
        var reason = ReadingDecoder.TryDecode(raw, out var reading) ? ReadingValidator.Validate(reading) : DeadLetterReason.Undecodable;
        if (reason == DeadLetterReason.None)
        {
            var writer = reading.Payload == PayloadCase.Weather ? _weather : _seismic;
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
