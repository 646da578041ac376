using SensorPipeline.Core.Readings;
using SensorPipeline.Core.Splitting;
using SensorPipeline.Devices;
using SensorPipeline.LoadGen.Events;
using SensorPipeline.LoadGen.Run;

namespace SensorPipeline.LoadGen.Tests;

[Trait("Category", "Fast")]
public class EventPackerTests
{
    [Theory]
    [InlineData(3, 2, 50)]
    [InlineData(50, 50, 50)]
    [InlineData(1, 1, 7)]
    [InlineData(4, 0, 3)]
    public void Next_DecodesToTheRequestedCount_SequencesContiguousPerDevice(int weather, int seismic, int perEvent)
    {
        var fleet = new DeviceFleet([weather, seismic], 1, "t");
        var packer = new EventPacker(fleet);
        var seen = new Dictionary<string, ulong>();

        for (var e = 0; e < 40; e++)
        {
            var packed = packer.Next(perEvent, Builders.Observed);
            var batch = ReadingBatch.Parser.ParseFrom(packed.Body);

            Assert.Equal(EventKind.Readings, packed.Kind);
            Assert.Equal(e, packed.TrackIndex);
            Assert.Equal(perEvent, batch.Readings.Count);
            Assert.Equal(perEvent, packed.ReadingCount);
            foreach (var reading in batch.Readings)
            {
                var previous = seen.GetValueOrDefault(reading.DeviceId);
                Assert.Equal(previous + 1, reading.Sequence);
                seen[reading.DeviceId] = reading.Sequence;
            }

            // The spans say exactly what the body holds (the ledger is built from them).
            var bySpan = packed.Spans.ToDictionary(s => fleet[s.DeviceIndex].Id, s => (s.First, s.Last));
            Assert.Equal(batch.Readings.Select(r => r.DeviceId).Distinct().Count(), bySpan.Count);
            foreach (var device in batch.Readings.GroupBy(r => r.DeviceId))
            {
                Assert.Equal((device.Min(r => r.Sequence), device.Max(r => r.Sequence)), bySpan[device.Key]);
            }
        }
    }

    [Fact]
    public void Next_MixedFleet_EveryEventMixesKinds()
    {
        var packer = new EventPacker(new DeviceFleet([5, 5], 1, "t"));

        for (var e = 0; e < 20; e++)
        {
            var kinds = ReadingBatch.Parser.ParseFrom(packer.Next(4, Builders.Observed).Body).Readings.Select(r => r.Kind).ToList();

            Assert.Contains(SensorKind.Weather, kinds);
            Assert.Contains(SensorKind.Seismic, kinds);
            // Interleaved, not blocked: neighbours differ.
            Assert.All(kinds.Zip(kinds.Skip(1)), p => Assert.NotEqual(p.First, p.Second));
        }
    }

    [Fact]
    public void Next_AnyEvent_FramesAsAReadingBatch()
    {
        var packer = new EventPacker(new DeviceFleet([50, 50], 1, "t"));

        var body = packer.Next(50, Builders.Observed).Body;

        Assert.Equal(DeadLetterReason.None, ReadingBatchReader.TryCheckFraming(body, out var count));
        Assert.Equal(50, count);
    }

    [Fact]
    public void Poison_RandomBytes_NeverFrameAsAReadingBatch()
    {
        var random = new Random(3);
        for (var i = 0; i < 200; i++)
        {
            var body = InjectedEvents.Poison(random, 8 + random.Next(600));

            Assert.Equal(DeadLetterReason.Undecodable, ReadingBatchReader.TryCheckFraming(body, out _));
        }
    }

    [Theory]
    [InlineData(SendOptionsValidator.MinOversizeBytes)]
    [InlineData(SendOptionsValidator.MaxOversizeBytes)]
    public void Oversize_MinimumSize_OneValidReadingTooLargeToForward(int minimumBytes)
    {
        var body = InjectedEvents.Oversize(1, minimumBytes, Builders.Observed);

        Assert.InRange(body.Length, minimumBytes, minimumBytes + 200);
        Assert.Equal(DeadLetterReason.None, ReadingBatchReader.TryCheckFraming(body, out var count));
        Assert.Equal(1, count);
        var reading = InjectedEvents.DeadLetterPayload(EventKind.Oversize, body).ToArray();
        Assert.False(EnvelopeBudget.FitsAlone(reading.Length, new Core.Readings.SourcePosition("0", 0, 0)));
        Assert.True(ReadingDecoder.TryDecode(reading, out var view));
        Assert.Equal(DeadLetterReason.None, ReadingValidator.Validate(view));
        Assert.StartsWith("oversize-", Assert.Single(ReadingBatch.Parser.ParseFrom(body).Readings).DeviceId, StringComparison.Ordinal);
    }

    [Fact]
    public void Truncated_AnyCut_FailsFramingDeadLetteredWhole()
    {
        var random = new Random(5);
        var splitter = new Splitter();
        for (var i = 0; i < 100; i++)
        {
            var body = InjectedEvents.Truncated(random, i, Builders.Observed);

            Assert.Equal(DeadLetterReason.Undecodable, ReadingBatchReader.TryCheckFraming(body, out _));
            var letter = Assert.Single(splitter.Split([new InputEvent(body, new Core.Readings.SourcePosition("0", i, 0))], 0).DeadLetters);
            Assert.Equal(InjectedEvents.DeadLetterPayload(EventKind.Truncated, body).ToArray(), letter.Payload.ToArray());
        }
    }

    [Fact]
    public void OutOfRange_Split_TheReadingDeadLetteredAsInvalidCoordinates()
    {
        var body = InjectedEvents.OutOfRange(7, Builders.Observed);

        var result = new Splitter().Split([new InputEvent(body, new Core.Readings.SourcePosition("0", 1, 0))], 0);

        var letter = Assert.Single(result.DeadLetters);
        Assert.Equal(DeadLetterReason.InvalidCoordinates, letter.Reason);
        Assert.Equal("out-of-range-0007", letter.DeviceId);
        Assert.Equal(InjectedEvents.DeadLetterPayload(EventKind.OutOfRange, body).ToArray(), letter.Payload.ToArray());
        Assert.Empty(result.Of(SensorKind.Weather).Envelopes);
    }

    [Fact]
    public void Forged_Processed_WholeEnvelopeDeadLetteredAsInvalidSource()
    {
        var body = InjectedEvents.Forged(3, Builders.Observed);
        using var processor = new Core.Processing.EnvelopeProcessor(SensorKind.Weather, "weather-processor", new Core.Policies.StalenessPolicy(TimeSpan.FromMinutes(5)));

        var result = processor.Process([new InputEvent(body, new Core.Readings.SourcePosition("0", 1, Builders.Observed.ToUnixTimeMilliseconds()))], Builders.Observed.ToUnixTimeMilliseconds());

        var letter = Assert.Single(result.DeadLetters);
        Assert.Equal(DeadLetterReason.InvalidSource, letter.Reason);
        Assert.Equal(InjectedEvents.DeadLetterPayload(EventKind.Forged, body).ToArray(), letter.Payload.ToArray());
        Assert.Empty(result.Pending);
    }
}
