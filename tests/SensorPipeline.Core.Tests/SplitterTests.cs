using SensorPipeline.Core.Splitting;

namespace SensorPipeline.Core.Tests;

public class SplitterTests
{
    private static readonly long Now = Builders.Observed.ToUnixTimeMilliseconds();

    private static InputEvent Event(byte[] body, long sequence = 0, string partition = "0") =>
        new(body, new Readings.SourcePosition(partition, sequence, Now - 1000 + sequence));

    /// <summary>Decodes an envelope with the generated parser, so the format is checked against Google.Protobuf.</summary>
    internal static ForwardEnvelope Parse(ReadOnlyMemory<byte> envelope) => ForwardEnvelope.Parser.ParseFrom(envelope.Span);

    [Fact]
    public void Split_MixedEvents_OneEnvelopePerKindWithProvenance()
    {
        using var splitter = new SplitterScope();
        var events = new[]
        {
            Event(Builders.Batch(Builders.Weather("w1", 1), Builders.Seismic("s1", 1), Builders.Weather("w2", 1)), 10),
            Event(Builders.Batch(Builders.Weather("w1", 2)), 11, "0"),
        };

        var result = splitter.Value.Split(events, Now);

        Assert.Equal(4, result.ReadingsReceived);
        Assert.Empty(result.DeadLetters);
        var weather = Parse(Assert.Single(result.Of(SensorKind.Weather).Envelopes));
        Assert.Equal(SensorKind.Weather, weather.Kind);
        Assert.Equal(Now, weather.ForwardedTimeUnixMs);
        Assert.Equal(new[] { "w1", "w2", "w1" }, weather.Readings.Select(r => r.Reading.DeviceId));
        Assert.Equal(new[] { 10L, 11L }, weather.Sources.Select(s => s.SequenceNumber));
        Assert.Equal(new uint[] { 0, 0, 1 }, weather.Readings.Select(r => r.SourceIndex));
        Assert.Equal(Now - 1000 + 11, weather.Sources[1].EnqueuedTimeUnixMs);
        var seismic = Parse(Assert.Single(result.Of(SensorKind.Seismic).Envelopes));
        Assert.Single(seismic.Readings);
        Assert.Equal(Builders.Seismic("s1", 1), seismic.Readings[0].Reading); // bytes forwarded unchanged
        Assert.Equal(1, result.Of(SensorKind.Seismic).Readings);
    }

    [Fact]
    public void Split_OnlyOneKind_LeavesOtherEnvelopeEmpty()
    {
        using var splitter = new SplitterScope();
        var result = splitter.Value.Split([Event(Builders.Batch(Builders.Seismic()))], Now);
        Assert.Empty(result.Of(SensorKind.Weather).Envelopes);
        Assert.Single(result.Of(SensorKind.Seismic).Envelopes);
    }

    [Fact]
    public void Split_FourPartitions_GroupsEachDevicesReadingsOnItsPartition()
    {
        using var splitter = new SplitterScope();
        var devices = Enumerable.Range(0, 12).Select(i => $"w{i}").ToList();
        var events = new[]
        {
            Event(Builders.Batch([.. devices.Select(d => Builders.Weather(d, 1))]), 10),
            Event(Builders.Batch([.. devices.Select(d => Builders.Weather(d, 2)), Builders.Seismic("s1", 1)]), 11),
        };

        var result = splitter.Value.Split(events, Now, [4, 3]);

        Assert.Equal(24, result.Of(SensorKind.Weather).Partitions.Sum(g => g.Readings));
        Assert.True(result.Of(SensorKind.Weather).Partitions.Count > 1);
        Assert.Equal(result.Of(SensorKind.Weather).Partitions.Count, result.Of(SensorKind.Weather).Partitions.Select(g => g.Partition).Distinct().Count());
        foreach (var group in result.Of(SensorKind.Weather).Partitions)
        {
            var readings = group.Envelopes.Select(Parse).SelectMany(e => e.Readings).ToList();
            Assert.Equal(group.Readings, readings.Count);
            Assert.All(readings, r => Assert.Equal(group.Partition, DevicePartitioner.PartitionOf(System.Text.Encoding.UTF8.GetBytes(r.Reading.DeviceId), 4)));
            // Each device's readings in the order they came.
            Assert.All(readings.GroupBy(r => r.Reading.DeviceId), g => Assert.Equal([1UL, 2UL], g.Select(r => r.Reading.Sequence)));
        }

        var seismic = Assert.Single(result.Of(SensorKind.Seismic).Partitions);
        Assert.Equal(DevicePartitioner.PartitionOf("s1"u8, 3), seismic.Partition);
        Assert.Equal(result.Of(SensorKind.Weather).Partitions.Sum(g => g.Envelopes.Count), result.Of(SensorKind.Weather).Envelopes.Count);

        // The next split starts empty: no partition keeps the previous invocation's readings.
        var next = splitter.Value.Split([Event(Builders.Batch(Builders.Weather("w0", 3)), 12)], Now, [4, 3]);
        Assert.Equal(1, Assert.Single(next.Of(SensorKind.Weather).Partitions).Readings);
        Assert.Empty(next.Of(SensorKind.Seismic).Partitions);
    }

    public static TheoryData<string, DeadLetterReason> BadEvents => new()
    {
        { "empty", DeadLetterReason.EmptyBody },
        { "truncated", DeadLetterReason.Undecodable },
        { "garbage", DeadLetterReason.Undecodable },
        { "json", DeadLetterReason.Undecodable },
    };

    [Theory]
    [MemberData(nameof(BadEvents))]
    public void Split_BadEvent_DeadLetteredWholeAndTheRestProceeds(string kind, DeadLetterReason expected)
    {
        using var splitter = new SplitterScope();
        var good = Builders.Batch(Builders.Weather());
        var bad = kind switch
        {
            "empty" => [],
            "truncated" => good[..^3],
            "garbage" => [0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0x01, 0x02],
            "json" => System.Text.Encoding.UTF8.GetBytes("{\"deviceId\":\"x\"}"),
            _ => throw new ArgumentOutOfRangeException(nameof(kind)),
        };

        var result = splitter.Value.Split([Event(good, 1), Event(bad, 2), Event(good, 3)], Now);

        var deadLetter = Assert.Single(result.DeadLetters);
        Assert.Equal(expected, deadLetter.Reason);
        Assert.Null(deadLetter.ReadingIndex);
        Assert.Equal(2, deadLetter.Position.SequenceNumber);
        Assert.Equal(bad, deadLetter.Payload.ToArray()); // the raw body is kept for replay
        Assert.Equal("splitter:0:2", deadLetter.Id);
        Assert.Equal(2, result.Of(SensorKind.Weather).Readings);
    }

    [Fact]
    public void Split_InvalidReading_OnlyThatReadingIsDeadLettered()
    {
        using var splitter = new SplitterScope();
        var nan = Builders.Weather("w-nan", 5);
        nan.Location.Latitude = double.NaN;
        var unknown = Builders.Weather("w-unknown", 6);
        unknown.Kind = SensorKind.Unspecified;
        var result = splitter.Value.Split([Event(Builders.Batch(Builders.Weather("ok", 1), nan, unknown), 7)], Now);

        Assert.Equal(3, result.ReadingsReceived);
        Assert.Equal(1, result.Of(SensorKind.Weather).Readings);
        Assert.Equal(new[] { DeadLetterReason.InvalidCoordinates, DeadLetterReason.UnknownKind }, result.DeadLetters.Select(d => d.Reason));
        Assert.Equal(new int?[] { 1, 2 }, result.DeadLetters.Select(d => d.ReadingIndex));
        Assert.Equal("w-nan", result.DeadLetters[0].DeviceId);
        Assert.Equal(nan, Reading.Parser.ParseFrom(result.DeadLetters[0].Payload.Span));
    }

    [Theory]
    [InlineData(1)]
    [InlineData(50)]
    [InlineData(500)]
    [InlineData(9_000)]
    public void Split_AnyNumberOfReadings_AllForwardedInEnvelopesCutBySizeAndCount(int count)
    {
        using var splitter = new SplitterScope();
        var readings = Enumerable.Range(1, count)
            .Select(i => i % 3 == 0 ? Builders.Seismic($"s{i % 11}", (ulong)i) : Builders.Weather($"w{i % 13}", (ulong)i)).ToArray();
        var body = Builders.Batch(readings);
        Assert.True(body.Length < EnvelopeBudget.EventHubMaxEventBytes);

        var result = splitter.Value.Split([Event(body, 7)], Now);

        Assert.Empty(result.DeadLetters);
        Assert.Equal(count, result.Of(SensorKind.Weather).Readings + result.Of(SensorKind.Seismic).Readings);
        var forwarded = result.Of(SensorKind.Weather).Envelopes.Concat(result.Of(SensorKind.Seismic).Envelopes).Select(Parse).ToList();
        Assert.All(result.Of(SensorKind.Weather).Envelopes.Concat(result.Of(SensorKind.Seismic).Envelopes), t => Assert.InRange(t.Length, 1, EnvelopeBudget.MaxEnvelopeBytes));
        Assert.All(forwarded, e => Assert.InRange(e.Readings.Count, 1, EnvelopeBudget.MaxReadingsPerEnvelope));
        Assert.All(forwarded, e => Assert.Equal(7, Assert.Single(e.Sources).SequenceNumber));
        // Original bytes, in order per kind: what the device sent is what the processors get.
        var sent = readings.Where(r => r.Kind == SensorKind.Weather).Concat(readings.Where(r => r.Kind == SensorKind.Seismic));
        Assert.Equal(sent.Select(r => r.ToByteString()), forwarded.SelectMany(e => e.Readings).Select(r => r.Reading.ToByteString()));
        Assert.Equal((result.Of(SensorKind.Weather).Readings + EnvelopeBudget.MaxReadingsPerEnvelope - 1) / EnvelopeBudget.MaxReadingsPerEnvelope, result.Of(SensorKind.Weather).Envelopes.Count);
    }

    [Fact]
    public void Split_LargeReadings_EnvelopesCutBySizeStayUnderTheEventLimit()
    {
        using var splitter = new SplitterScope();

        // Readings of ~100 KB (big device ids are capped, so the bulk is an unknown field: still a valid reading).
        var events = Enumerable.Range(0, 4).Select(e =>
        {
            var readings = Enumerable.Range(1, 9).Select(i => WithPadding(Builders.Weather($"big{e}", (ulong)i), 100_000)).ToArray();
            return Event(Builders.Batch(readings), e);
        }).ToArray();
        Assert.All(events, e => Assert.InRange(e.Body.Length, 900_000, EnvelopeBudget.EventHubMaxEventBytes));

        var result = splitter.Value.Split(events, Now);

        Assert.Empty(result.DeadLetters);
        Assert.Equal(36, result.Of(SensorKind.Weather).Readings);
        Assert.All(result.Of(SensorKind.Weather).Envelopes, t => Assert.InRange(t.Length, 1, EnvelopeBudget.MaxEnvelopeBytes));
        var envelopes = result.Of(SensorKind.Weather).Envelopes.Select(Parse).ToList();
        Assert.True(envelopes.Count >= 4, $"{envelopes.Count} envelopes for 3.6 MB of readings");
        Assert.Equal(36, envelopes.Sum(e => e.Readings.Count));
        // An envelope that spans two events points each reading at its own event.
        Assert.All(envelopes, e => Assert.All(e.Readings, r => Assert.Equal(e.Sources[(int)r.SourceIndex].SequenceNumber, long.Parse(r.Reading.DeviceId[3..], System.Globalization.CultureInfo.InvariantCulture))));
    }

    [Fact]
    public void Split_ReadingTooLargeToForwardAlone_OnlyThatReadingIsDeadLetteredAsOversize()
    {
        using var splitter = new SplitterScope();
        var huge = WithPadding(Builders.Weather("huge", 2), EnvelopeBudget.MaxEnvelopeBytes);
        var body = Builders.Batch(Builders.Weather("ok", 1), huge, Builders.Weather("ok", 3));
        Assert.True(body.Length < EnvelopeBudget.EventHubMaxEventBytes);

        var result = splitter.Value.Split([Event(body, 5)], Now);

        var letter = Assert.Single(result.DeadLetters);
        Assert.Equal(DeadLetterReason.Oversize, letter.Reason);
        Assert.Equal(1, letter.ReadingIndex);
        Assert.Equal("huge", letter.DeviceId);
        Assert.Equal(huge.ToByteArray(), letter.Payload.ToArray());
        Assert.Contains(EnvelopeBudget.MaxEnvelopeBytes.ToString(System.Globalization.CultureInfo.InvariantCulture), letter.Detail, StringComparison.Ordinal);
        Assert.Equal(2, result.Of(SensorKind.Weather).Readings);
    }

    [Fact]
    public void Split_EventOfManyInvalidReadings_OneDeadLetterHoldingOnlyTheInvalidOnesAndTheValidOnesForwarded()
    {
        using var splitter = new SplitterScope();
        var readings = Enumerable.Range(1, 300).Select(i => Builders.Weather("w", i % 2 == 0 ? (ulong)i : 0)).ToArray();
        var body = Builders.Batch(readings);

        var result = splitter.Value.Split([Event(body, 9)], Now);

        var letter = Assert.Single(result.DeadLetters);
        Assert.Equal(DeadLetterReason.ManyInvalidReadings, letter.Reason);
        Assert.Null(letter.ReadingIndex);
        // Only what was not forwarded, as one batch of the readings' exact bytes: re-driving it cannot forward a reading twice.
        Assert.Equal(Builders.Batch(readings.Where(r => r.Sequence == 0).ToArray()), letter.Payload.ToArray());
        Assert.Equal(150, result.Of(SensorKind.Weather).Readings);
        Assert.Equal(300, result.ReadingsReceived);
    }

    [Fact]
    public void Split_LargestReadingThatFitsAlone_ItsEnvelopeIsAtMostTheBudget()
    {
        using var splitter = new SplitterScope();
        var source = new Readings.SourcePosition("0", 0, Now - 1000);
        var padding = EnvelopeBudget.MaxEnvelopeBytes - 64;
        var reading = WithPadding(Builders.Weather("edge", 1), padding);
        while (WithPadding(Builders.Weather("edge", 1), padding + 1) is var next && EnvelopeBudget.FitsAlone(next.CalculateSize(), source))
        {
            (reading, padding) = (next, padding + 1);
        }

        Assert.True(EnvelopeBudget.FitsAlone(reading.CalculateSize(), source));

        var result = splitter.Value.Split([Event(Builders.Batch(reading), 0)], Now);

        Assert.Empty(result.DeadLetters);
        var envelope = Assert.Single(result.Of(SensorKind.Weather).Envelopes);
        Assert.InRange(envelope.Length, EnvelopeBudget.MaxEnvelopeBytes - 16, EnvelopeBudget.MaxEnvelopeBytes);
        Assert.Equal(reading.ToByteString(), Assert.Single(Parse(envelope).Readings).Reading.ToByteString());
    }

    [Fact]
    public void EnvelopeBudget_TooLargeBatchSize_NamesTheHostJsonSetting()
    {
        var problem = new EnvelopeBudget(EnvelopeBudget.MaxSupportedBatchSize + 1).Problem;
        Assert.NotNull(problem);
        Assert.Contains("maxEventBatchSize", problem, StringComparison.Ordinal);
        Assert.Null(new EnvelopeBudget(EnvelopeBudget.MaxSupportedBatchSize).Problem);
    }

    /// <summary>Grows a reading by an unknown field (number 99) until it is <paramref name="bytes"/> long or more.</summary>
    private static Reading WithPadding(Reading reading, int bytes)
    {
        var padded = reading.ToByteArray().Concat(UnknownField(99, new byte[Math.Max(0, bytes - reading.CalculateSize())])).ToArray();
        return Reading.Parser.ParseFrom(padded);
    }

    private static byte[] UnknownField(int number, byte[] payload)
    {
        using var stream = new MemoryStream();
        var output = new CodedOutputStream(stream);
        output.WriteTag(number, WireFormat.WireType.LengthDelimited);
        output.WriteBytes(ByteString.CopyFrom(payload));
        output.Flush();
        return stream.ToArray();
    }

    /// <summary>Keeps test bodies short; the splitter itself holds no unmanaged resources.</summary>
    private sealed class SplitterScope : IDisposable
    {
        public Splitter Value { get; } = new();

        public void Dispose()
        {
        }
    }
}
