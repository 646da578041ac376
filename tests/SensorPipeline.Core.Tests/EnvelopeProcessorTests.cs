using System.Text.Json;
using SensorPipeline.Core.DeviceStates;
using SensorPipeline.Core.Policies;
using SensorPipeline.Core.Processing;
using SensorPipeline.Core.Splitting;

namespace SensorPipeline.Core.Tests;

public partial class EnvelopeProcessorTests
{
    private static readonly long Now = Builders.Observed.ToUnixTimeMilliseconds();

    private static InputEvent Envelope(SensorKind kind, params (Reading Reading, long EnqueuedMs)[] readings)
    {
        var envelope = new ForwardEnvelope { Kind = kind, ForwardedTimeUnixMs = Now };
        foreach (var (reading, enqueued) in readings)
        {
            envelope.Sources.Add(new Protos.SourcePosition { PartitionId = "1", SequenceNumber = envelope.Sources.Count, EnqueuedTimeUnixMs = enqueued });
            envelope.Readings.Add(new ForwardedReading { Reading = reading, SourceIndex = (uint)envelope.Sources.Count - 1 });
        }

        return new InputEvent(envelope.ToByteArray(), new Readings.SourcePosition("2", 99, Now));
    }

    private static EnvelopeProcessor Weather() => new(SensorKind.Weather, "weather-processor", new StalenessPolicy(TimeSpan.FromMinutes(5)));

    [Fact]
    public void Process_FreshAndStale_SplitBetweenLiveAndArchive()
    {
        using var processor = Weather();
        var result = processor.Process([Envelope(SensorKind.Weather,
            (Builders.Weather("w1", 1), Now - 1000),
            (Builders.Weather("w2", 1), Now - 301_000))], Now);

        Assert.Equal(2, result.ReadingsReceived);
        Assert.Equal(1, result.StaleReadings);
        Assert.Equal(new[] { DocumentTarget.Live, DocumentTarget.Archive }, result.Pending.Select(p => p.Target));
        using var archived = JsonDocument.Parse(result.Bytes(result.Pending[1]));
        Assert.Equal(1000, archived.RootElement.GetProperty("properties").GetProperty("staleByMs").GetInt64());
        Assert.Equal(Builders.ReadingId("w2", 1), result.Pending[1].Id);
        Assert.Equal(Now - 301_000, result.OldestEnqueuedUnixMs);
        var latest = Assert.Single(result.Latest); // stale readings stay out of the live device state
        Assert.Equal("w1", latest.DeviceId);
    }

    [Fact]
    public void Process_SameDeviceOutOfOrder_LatestIsTheNewest()
    {
        using var processor = Weather();
        var result = processor.Process([
            Envelope(SensorKind.Weather, (Builders.Weather("w", 5), Now), (Builders.Weather("w", 9), Now)),
            Envelope(SensorKind.Weather, (Builders.Weather("w", 7), Now), (Builders.Weather("other", 1), Now)),
        ], Now);

        Assert.Equal(4, result.Pending.Count);
        Assert.Equal(2, result.Latest.Count);
        var w = result.Latest.Single(l => l.DeviceId == "w");
        Assert.Equal(9ul, w.Sequence);
        Assert.Equal(NewerWins.VersionKey(9, Builders.Observed.AddSeconds(9)), w.Version);
        using var doc = JsonDocument.Parse(result.Documents.Slice(w.DocumentOffset, w.DocumentLength));
        Assert.Equal("w", doc.RootElement.GetProperty("id").GetString());
        Assert.Equal(w.Version, doc.RootElement.GetProperty("version").GetString());
        Assert.Equal(Builders.ReadingId("w", 9), doc.RootElement.GetProperty("properties").GetProperty("readingId").GetString());
    }

    [Fact]
    public void Process_WrongKindEnvelopeAndGarbage_DeadLetteredWhole()
    {
        using var processor = Weather();
        var result = processor.Process([
            Envelope(SensorKind.Seismic, (Builders.Seismic(), Now)),
            new InputEvent(new byte[] { 1, 2, 3 }, new Readings.SourcePosition("0", 5, Now)),
            Envelope(SensorKind.Weather, (Builders.Weather(), Now)),
        ], Now);

        Assert.Equal(new[] { DeadLetterReason.PayloadMismatch, DeadLetterReason.Undecodable }, result.DeadLetters.Select(d => d.Reason));
        Assert.Single(result.Pending);
        Assert.Equal("weather-processor:0:5", result.DeadLetters[1].Id);
    }

    [Fact]
    public void ReadingBytes_ReadingBehindAnInvalidOneInTheSecondEnvelope_TheReadingsOwnBytes()
    {
        using var processor = Weather();
        var (first, good) = (Builders.Weather("first", 1), Builders.Weather("good", 2));
        var result = processor.Process([
            Envelope(SensorKind.Weather, (first, Now)),
            Envelope(SensorKind.Weather, (Builders.Weather("bad", 0), Now), (good, Now)),
        ], Now);

        // What a store-rejection letter holds, so redrive can send the reading again: its bytes as the producer wrote them.
        Assert.Equal(first.ToByteArray(), result.ReadingBytes(result.Pending[0]).ToArray());
        Assert.Equal(good.ToByteArray(), result.ReadingBytes(result.Pending[1]).ToArray());
        Assert.Equal(good.ToByteArray(), result.ReadingBytes(result.Latest.Single(l => l.DeviceId == good.DeviceId)).ToArray());
    }

    [Fact]
    public void Process_InvalidReadingInsideEnvelope_DeadLettersOnlyIt()
    {
        using var processor = Weather();
        var bad = Builders.Weather("bad", 0); // sequence 0
        var result = processor.Process([Envelope(SensorKind.Weather, (Builders.Weather("good", 1), Now), (bad, Now))], Now);

        var deadLetter = Assert.Single(result.DeadLetters);
        Assert.Equal(DeadLetterReason.ZeroSequence, deadLetter.Reason);
        Assert.Equal(1, deadLetter.ReadingIndex);
        Assert.Single(result.Pending);
        Assert.Equal(result.ReadingsReceived, result.Pending.Count + result.DeadLetters.Count);
    }

    [Fact]
    public void Process_SplitterOutput_AccountsForEveryReading()
    {
        var splitter = new Splitter();
        var readings = Enumerable.Range(1, 50).Select(i => i % 3 == 0 ? Builders.Seismic($"s{i % 7}", (ulong)i) : Builders.Weather($"w{i % 5}", (ulong)i)).ToArray();
        var split = splitter.Split([new InputEvent(Builders.Batch(readings), new Readings.SourcePosition("0", 1, Now - 10))], Now);
        using var weather = Weather();
        using var seismic = new EnvelopeProcessor(SensorKind.Seismic, "seismic-processor", new StalenessPolicy(TimeSpan.FromMinutes(5)));

        var w = weather.Process([new InputEvent(Assert.Single(split.Of(SensorKind.Weather).Envelopes), new Readings.SourcePosition("0", 0, Now))], Now);
        Assert.Equal(w.Pending.Count, split.Of(SensorKind.Weather).Readings);
        var s = seismic.Process([new InputEvent(Assert.Single(split.Of(SensorKind.Seismic).Envelopes), new Readings.SourcePosition("0", 0, Now))], Now);
        Assert.Equal(s.Pending.Count, split.Of(SensorKind.Seismic).Readings);

        var ids = w.Pending.Concat(s.Pending).Select(p => p.Id).Order().ToArray();
        Assert.Equal(readings.Select(Builders.ReadingId).Order().ToArray(), ids);
        Assert.Equal(5, w.Latest.Count);
        Assert.Equal(Now - 10, w.OldestEnqueuedUnixMs);
    }

    [Theory]
    [InlineData(long.MaxValue)]
    [InlineData(SensorPipeline.Core.Readings.SourcePosition.MaxEnqueuedTimeUnixMs + 1)]
    [InlineData(-1L)]
    [InlineData(long.MinValue)]
    public void Process_SourceEnqueuedTimeOutOfRange_DeadLettersTheEnvelopeAndProcessesTheNext(long enqueued)
    {
        using var processor = Weather();
        var forged = Envelope(SensorKind.Weather, (Builders.Weather("forged", 1), enqueued));
        var next = Envelope(SensorKind.Weather, (Builders.Weather("next", 1), Now));

        var result = processor.Process([forged, next], Now);

        var letter = Assert.Single(result.DeadLetters);
        Assert.Equal(DeadLetterReason.InvalidSource, letter.Reason);
        Assert.Null(letter.ReadingIndex);
        Assert.Equal(forged.Body.ToArray(), letter.Payload.ToArray());
        Assert.Equal(Builders.ReadingId("next", 1), Assert.Single(result.Pending).Id);
        Assert.Equal("next", Assert.Single(result.Latest).DeviceId);
    }

    [Fact]
    public void Process_SourceEnqueuedTimeAtTheCalendarsEnds_IsAccepted()
    {
        using var processor = Weather();
        var result = processor.Process([Envelope(SensorKind.Weather,
            (Builders.Weather("first", 1), 0),
            (Builders.Weather("last", 1), SensorPipeline.Core.Readings.SourcePosition.MaxEnqueuedTimeUnixMs))], Now);

        Assert.Empty(result.DeadLetters);
        Assert.Equal(2, result.Pending.Count);
    }

    [Fact]
    public void Process_IngestionBatchOnTheProcessorsHub_DeadLetteredWholeAsUndecodable()
    {
        // A ReadingBatch parses as protobuf, but names no kind and holds no ForwardedReading (its field 1 is a message,
        // an envelope's is the kind's varint): with no marker, the header check is what tells it from an envelope.
        var batch = new InputEvent(Builders.Batch(Builders.Weather("w1", 1)), new Readings.SourcePosition("2", 99, Now));
        using var processor = Weather();

        var result = processor.Process([batch], Now);

        Assert.Empty(result.Pending);
        var letter = Assert.Single(result.DeadLetters);
        Assert.Equal(DeadLetterReason.Undecodable, letter.Reason);
        Assert.True(letter.Payload.Span.SequenceEqual(batch.Body.Span));
    }

    [Theory]
    [InlineData(0)]
    [InlineData(9)]
    public void Process_EnvelopeNamingNoRoutedKind_DeadLetteredWholeAsUndecodable(int kind)
    {
        var envelope = Envelope(SensorKind.Weather, (Builders.Weather("w1", 1), Now));
        var parsed = ForwardEnvelope.Parser.ParseFrom(envelope.Body.ToArray());
        parsed.Kind = (SensorKind)kind;
        using var processor = Weather();

        var result = processor.Process([envelope with { Body = parsed.ToByteArray() }], Now);

        Assert.Empty(result.Pending);
        Assert.Equal(DeadLetterReason.Undecodable, Assert.Single(result.DeadLetters).Reason);
    }

    [Fact]
    public void Process_ReadingWithoutSourceInEnvelopeWithoutSources_DeadLetteredAsUndecodable()
    {
        // Found by fuzzing: a source index absent on the wire reads as 0, and an envelope with no source positions has
        // no source 0. No splitter writes it, but a body on the hub is untrusted: one reading is dead-lettered, never
        // an exception that fails the whole invocation.
        var envelope = new ForwardEnvelope { Kind = SensorKind.Weather, ForwardedTimeUnixMs = Now };
        envelope.Readings.Add(new ForwardedReading { Reading = Builders.Weather("w1", 1) });
        using var processor = Weather();

        var result = processor.Process([new InputEvent(envelope.ToByteArray(), new Readings.SourcePosition("2", 99, Now))], Now);

        Assert.Empty(result.Pending);
        var letter = Assert.Single(result.DeadLetters);
        Assert.Equal(DeadLetterReason.Undecodable, letter.Reason);
        Assert.Equal(0, letter.ReadingIndex);
    }

    [Fact]
    public void Process_BodyWhoseFramingDoesNotParse_DeadLetteredWholeAsUndecodable()
    {
        using var processor = Weather();
        byte[] body = [(byte)'~', (byte)'A', (byte)'+', (byte)'=', (byte)'!'];
        var result = processor.Process([Envelope(SensorKind.Weather, (Builders.Weather("w1", 1), Now)) with { Body = body }], Now);

        var letter = Assert.Single(result.DeadLetters);
        Assert.Equal(DeadLetterReason.Undecodable, letter.Reason);
        Assert.Equal(body, letter.Payload.ToArray());
        Assert.Empty(result.Pending);
    }

    [Fact]
    public void Process_SequenceReset_TheLaterReadingBecomesTheDeviceState()
    {
        using var processor = Weather();
        var beforeReboot = Builders.Weather("w", 900, observed: Builders.Observed);
        var afterReboot = Builders.Weather("w", 1, observed: Builders.Observed.AddMinutes(1));

        var result = processor.Process([Envelope(SensorKind.Weather, (afterReboot, Now), (beforeReboot, Now))], Now);

        Assert.Equal(1ul, Assert.Single(result.Latest).Sequence);
        Assert.Equal(2, result.Pending.Count);
    }

    [Fact]
    public void Process_ReadingDatedInTheFuture_StoredButNeverTheDeviceState()
    {
        using var processor = Weather();
        var skewed = Builders.Weather("w", 8, observed: DateTimeOffset.FromUnixTimeMilliseconds(Now).AddHours(3));
        var honest = Builders.Weather("w", 7, observed: DateTimeOffset.FromUnixTimeMilliseconds(Now - 1000));

        var result = processor.Process([Envelope(SensorKind.Weather, (skewed, Now), (honest, Now))], Now);

        Assert.Equal([Builders.ReadingId(skewed), Builders.ReadingId(honest)], result.Pending.Select(p => p.Id));
        Assert.Equal(7ul, Assert.Single(result.Latest).Sequence);
    }

    [Fact]
    public void Process_ConfiguredClockSkew_DecidesWhetherAReadingAheadMayWin()
    {
        var ahead = Builders.Weather("w", 8, observed: DateTimeOffset.FromUnixTimeMilliseconds(Now).AddMinutes(2));
        var honest = Builders.Weather("w", 7, observed: DateTimeOffset.FromUnixTimeMilliseconds(Now - 1000));

        using var tolerant = Weather();
        using var strict = new EnvelopeProcessor(SensorKind.Weather, "weather-processor", new StalenessPolicy(TimeSpan.FromMinutes(5)), maxClockSkew: TimeSpan.FromMinutes(1));

        Assert.Equal(8ul, Assert.Single(tolerant.Process([Envelope(SensorKind.Weather, (ahead, Now), (honest, Now))], Now).Latest).Sequence);
        var result = strict.Process([Envelope(SensorKind.Weather, (ahead, Now), (honest, Now))], Now);
        Assert.Equal(2, result.Pending.Count); // stored either way
        Assert.Equal(7ul, Assert.Single(result.Latest).Sequence);
    }

    [Fact]
    public void Process_SequenceReset_BothReadingsKeepTheirOwnDocuments()
    {
        using var processor = Weather();
        var (beforeReboot, afterReboot) = ReadingsAroundASequenceReset();

        var ids = processor.Process([Envelope(SensorKind.Weather, (beforeReboot, Now), (afterReboot, Now))], Now)
            .Pending.Select(p => p.Id).ToArray();

        Assert.Equal(2, ids.Distinct().Count()); // the reading after the reset does not overwrite the one before it
    }

    [Fact]
    public void Process_RedeliveryAfterASequenceReset_LandsOnTheSameDocuments()
    {
        using var processor = Weather();
        var (beforeReboot, afterReboot) = ReadingsAroundASequenceReset();

        var first = processor.Process([Envelope(SensorKind.Weather, (beforeReboot, Now), (afterReboot, Now))], Now)
            .Pending.Select(p => p.Id).ToArray();
        var replayed = processor.Process([Envelope(SensorKind.Weather, (afterReboot.Clone(), Now), (beforeReboot.Clone(), Now))], Now)
            .Pending.Select(p => p.Id).ToArray();

        Assert.Equal(first.Reverse(), replayed);
    }

    // The same device and sequence number twice: the device rebooted and counts again from where it began.
    private static (Reading BeforeReboot, Reading AfterReboot) ReadingsAroundASequenceReset()
    {
        var beforeReboot = Builders.Weather("w", 3);
        var afterReboot = Builders.Weather("w", 3, observed: Builders.Observed.AddHours(2));
        afterReboot.Weather.TemperatureC = -4;
        return (beforeReboot, afterReboot);
    }
}
