using SensorPipeline.Core.DeadLetters;
using SensorPipeline.Core.Readings;

namespace SensorPipeline.Core.Splitting;

/// <summary>One ingestion event as the trigger delivered it.</summary>
public readonly record struct InputEvent(ReadOnlyMemory<byte> Body, SourcePosition Position);

/// <summary>What one splitter invocation produces. Envelope memory is valid until the splitter's next <see cref="Splitter.Split"/>.</summary>
public sealed class SplitResult
{
    internal SplitResult(ReadOnlyMemory<byte> weather, int weatherReadings, ReadOnlyMemory<byte> seismic, int seismicReadings,
        IReadOnlyList<DeadLetter> deadLetters, int readingsReceived)
    {
        Weather = weather;
        WeatherReadings = weatherReadings;
        Seismic = seismic;
        SeismicReadings = seismicReadings;
        DeadLetters = deadLetters;
        ReadingsReceived = readingsReceived;
    }

    /// <summary>The weather envelope, empty when no weather reading came in.</summary>
    public ReadOnlyMemory<byte> Weather { get; }
    public int WeatherReadings { get; }

    /// <summary>The seismic envelope, empty when no seismic reading came in.</summary>
    public ReadOnlyMemory<byte> Seismic { get; }
    public int SeismicReadings { get; }

    /// <summary>Events and readings that could not be forwarded, with reasons.</summary>
    public IReadOnlyList<DeadLetter> DeadLetters { get; }

    /// <summary>Readings found in events that decoded (forwarded + dead-lettered readings).</summary>
    public int ReadingsReceived { get; }
}

/// <summary>
/// The splitter's pure core: checks each ingestion event, validates and routes each reading by kind,
/// and coalesces them into one envelope per kind. Accounting is exact: every reading of every event
/// ends up forwarded or in a dead letter, and every undecodable or oversize event in a dead letter.
/// Not thread-safe (it reuses its buffers); one per concurrent invocation.
/// </summary>
public sealed class Splitter
{
    /// <summary>The stage name stored in dead letters.</summary>
    public const string Stage = "splitter";

    private readonly EnvelopeBudget _budget;
    private readonly EnvelopeWriter _weather = new(1);
    private readonly EnvelopeWriter _seismic = new(2);

    public Splitter(EnvelopeBudget budget) => _budget = budget ?? throw new ArgumentNullException(nameof(budget));

    public SplitResult Split(IReadOnlyList<InputEvent> events, long nowUnixMs)
    {
        ArgumentNullException.ThrowIfNull(events);
        if (events.Count > _budget.MaxEventBatchSize)
        {
            // The host never delivers more than maxEventBatchSize; more would break the size guarantee.
            throw new ArgumentException($"Got {events.Count} events; the envelope budget was made for at most {_budget.MaxEventBatchSize} (host.json maxEventBatchSize).", nameof(events));
        }

        _weather.Reset();
        _seismic.Reset();
        var deadLetters = new List<DeadLetter>();
        var received = 0;
        for (var e = 0; e < events.Count; e++)
        {
            var input = events[e];
            var body = input.Body.Span;
            var framing = ReadingBatchReader.TryCheckFraming(body, _budget.MaxSourceIndex, out var count, out var forwardedBytes);
            if (framing == DeadLetterReason.None && !_budget.Fits(forwardedBytes))
            {
                framing = DeadLetterReason.Oversize;
            }

            if (framing != DeadLetterReason.None)
            {
                deadLetters.Add(new DeadLetter(Stage, framing, input.Position, null, null, input.Body,
                    framing == DeadLetterReason.Oversize ? $"{count} readings would take {forwardedBytes} bytes; the per-event budget is {_budget.PerEventBytes}" : null));
                continue;
            }

            received += count;
            var index = 0;
            foreach (var raw in ReadingBatchReader.EnumerateReadings(body))
            {
                Route(raw, e, index++, input, deadLetters);
            }
        }

        return new SplitResult(
            _weather.ReadingCount > 0 ? _weather.Complete(nowUnixMs) : ReadOnlyMemory<byte>.Empty, _weather.ReadingCount,
            _seismic.ReadingCount > 0 ? _seismic.Complete(nowUnixMs) : ReadOnlyMemory<byte>.Empty, _seismic.ReadingCount,
            deadLetters, received);
    }

    private void Route(ReadOnlySpan<byte> raw, int eventIndex, int readingIndex, in InputEvent input, List<DeadLetter> deadLetters)
    {
        var reason = ReadingDecoder.TryDecode(raw, out var reading) ? ReadingValidator.Validate(reading) : DeadLetterReason.Undecodable;
        if (reason != DeadLetterReason.None)
        {
            var device = reason is DeadLetterReason.Undecodable or DeadLetterReason.MissingDeviceId or DeadLetterReason.InvalidDeviceId
                ? null
                : System.Text.Encoding.UTF8.GetString(reading.DeviceIdUtf8);
            deadLetters.Add(new DeadLetter(Stage, reason, input.Position, readingIndex, device, raw.ToArray()));
            return;
        }

        var writer = reading.Payload == PayloadCase.Weather ? _weather : _seismic;
        writer.Add(raw, eventIndex, input.Position);
    }
}
