using Google.Protobuf;
using SensorPipeline.Core.Readings;
using SensorPipeline.Core.Splitting;
using SensorPipeline.Protos;

namespace SensorPipeline.Core.Tests;

public class SplitterTests
{
    private static readonly long Now = Builders.Observed.ToUnixTimeMilliseconds();

    private static InputEvent Event(byte[] body, long sequence = 0, string partition = "0") =>
        new(body, new Readings.SourcePosition(partition, sequence, Now - 1000 + sequence));

    [Fact]
    public void Split_MixedEvents_OneEnvelopePerKindWithProvenance()
    {
        using var splitter = new SplitterScope(100);
        var events = new[]
        {
            Event(Builders.Batch(Builders.Weather("w1", 1), Builders.Seismic("s1", 1), Builders.Weather("w2", 1)), 10),
            Event(Builders.Batch(Builders.Weather("w1", 2)), 11, "0"),
        };

        var result = splitter.Value.Split(events, Now);

        Assert.Equal(4, result.ReadingsReceived);
        Assert.Empty(result.DeadLetters);
        var weather = ForwardEnvelope.Parser.ParseFrom(result.Weather.Span);
        Assert.Equal(SensorKind.Weather, weather.Kind);
        Assert.Equal(Now, weather.ForwardedTimeUnixMs);
        Assert.Equal(new[] { "w1", "w2", "w1" }, weather.Readings.Select(r => r.Reading.DeviceId));
        Assert.Equal(new[] { 10L, 11L }, weather.Sources.Select(s => s.SequenceNumber));
        Assert.Equal(new uint[] { 0, 0, 1 }, weather.Readings.Select(r => r.SourceIndex));
        Assert.Equal(Now - 1000 + 11, weather.Sources[1].EnqueuedTimeUnixMs);
        var seismic = ForwardEnvelope.Parser.ParseFrom(result.Seismic.Span);
        Assert.Single(seismic.Readings);
        Assert.Equal(Builders.Seismic("s1", 1), seismic.Readings[0].Reading); // bytes forwarded unchanged
        Assert.Equal(1, result.SeismicReadings);
    }

    [Fact]
    public void Split_OnlyOneKind_LeavesOtherEnvelopeEmpty()
    {
        using var splitter = new SplitterScope(10);
        var result = splitter.Value.Split([Event(Builders.Batch(Builders.Seismic()))], Now);
        Assert.True(result.Weather.IsEmpty);
        Assert.False(result.Seismic.IsEmpty);
    }

    public static TheoryData<string, DeadLetterReason> BadEvents => new()
    {
        { "empty", DeadLetterReason.EmptyBody },
        { "truncated", DeadLetterReason.Undecodable },
        { "garbage", DeadLetterReason.Undecodable },
        { "json", DeadLetterReason.Undecodable },
        { "oversize", DeadLetterReason.Oversize },
    };

    [Theory]
    [MemberData(nameof(BadEvents))]
    public void Split_BadEvent_DeadLetteredWholeAndTheRestProceeds(string kind, DeadLetterReason expected)
    {
        using var splitter = new SplitterScope(100);
        var good = Builders.Batch(Builders.Weather());
        var bad = kind switch
        {
            "empty" => [],
            "truncated" => good[..^3],
            "garbage" => [0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0x01, 0x02],
            "json" => System.Text.Encoding.UTF8.GetBytes("{\"deviceId\":\"x\"}"),
            "oversize" => Builders.Batch(Enumerable.Range(1, 200).Select(i => Builders.Weather("w", (ulong)i)).ToArray()),
            _ => throw new ArgumentOutOfRangeException(nameof(kind)),
        };

        var result = splitter.Value.Split([Event(good, 1), Event(bad, 2), Event(good, 3)], Now);

        var deadLetter = Assert.Single(result.DeadLetters);
        Assert.Equal(expected, deadLetter.Reason);
        Assert.Null(deadLetter.ReadingIndex);
        Assert.Equal(2, deadLetter.Position.SequenceNumber);
        Assert.Equal(bad, deadLetter.Payload.ToArray()); // the raw body is kept for replay
        Assert.Equal("splitter:0:2", deadLetter.Id);
        Assert.Equal(2, result.WeatherReadings);
    }

    [Fact]
    public void Split_InvalidReading_OnlyThatReadingIsDeadLettered()
    {
        using var splitter = new SplitterScope(100);
        var nan = Builders.Weather("w-nan", 5);
        nan.Location.Latitude = double.NaN;
        var unknown = Builders.Weather("w-unknown", 6);
        unknown.Kind = SensorKind.Unspecified;
        var result = splitter.Value.Split([Event(Builders.Batch(Builders.Weather("ok", 1), nan, unknown), 7)], Now);

        Assert.Equal(3, result.ReadingsReceived);
        Assert.Equal(1, result.WeatherReadings);
        Assert.Equal(new[] { DeadLetterReason.InvalidCoordinates, DeadLetterReason.UnknownKind }, result.DeadLetters.Select(d => d.Reason));
        Assert.Equal(new int?[] { 1, 2 }, result.DeadLetters.Select(d => d.ReadingIndex));
        Assert.Equal("w-nan", result.DeadLetters[0].DeviceId);
        Assert.Equal(nan, Reading.Parser.ParseFrom(result.DeadLetters[0].Payload.Span));
    }

    [Theory]
    [InlineData(1)]
    [InlineData(10)]
    [InlineData(100)]
    [InlineData(512)]
    public void Split_FullBatchOfLargestAllowedEvents_EnvelopeStaysUnderLimit(int maxEventBatchSize)
    {
        var budget = new EnvelopeBudget(maxEventBatchSize);
        Assert.Null(budget.Problem);
        using var splitter = new SplitterScope(maxEventBatchSize);

        // The share is used well (≥ 80 %: what is left is under one reading plus the source entry per event).
        // Grow one event reading by reading until it no longer fits its share: the last size that fit is the worst case.
        var readings = new List<Reading>();
        byte[] largest = [];
        while (true)
        {
            readings.Add(Builders.Weather(new string('d', 100), (ulong)readings.Count + 1));
            var candidate = Builders.Batch([.. readings]);
            ReadingBatchReader.TryCheckFraming(candidate, budget.MaxSourceIndex, out _, out var bytes);
            if (!budget.Fits(bytes))
            {
                break;
            }

            largest = candidate;
        }

        var events = Enumerable.Range(0, maxEventBatchSize)
            .Select(i => new InputEvent(largest, new Readings.SourcePosition("1023", long.MaxValue - i, long.MaxValue - i))).ToArray();
        var result = splitter.Value.Split(events, long.MaxValue);

        Assert.Empty(result.DeadLetters);
        Assert.InRange(result.Weather.Length, EnvelopeBudget.EnvelopeLimitBytes * 0.8, EnvelopeBudget.EnvelopeLimitBytes);
        Assert.Equal(events.Length * (readings.Count - 1), ForwardEnvelope.Parser.ParseFrom(result.Weather.Span).Readings.Count);
    }

    [Fact]
    public void EnvelopeBudget_TooLargeBatchSize_NamesTheHostJsonSetting()
    {
        var problem = new EnvelopeBudget(5000).Problem;
        Assert.NotNull(problem);
        Assert.Contains("maxEventBatchSize", problem, StringComparison.Ordinal);
        Assert.Null(new EnvelopeBudget(900).Problem);
    }

    [Fact]
    public void Split_MoreEventsThanBudgetedBatch_Throws()
    {
        using var splitter = new SplitterScope(2);
        var e = Event(Builders.Batch(Builders.Weather()));
        Assert.Throws<ArgumentException>(() => splitter.Value.Split([e, e, e], Now));
    }

    /// <summary>Keeps test bodies short; the splitter itself holds no unmanaged resources.</summary>
    private sealed class SplitterScope(int maxEventBatchSize) : IDisposable
    {
        public Splitter Value { get; } = new(new EnvelopeBudget(maxEventBatchSize));

        public void Dispose()
        {
        }
    }
}
