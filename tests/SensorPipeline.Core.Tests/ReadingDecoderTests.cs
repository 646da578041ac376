using System.Text;
using FsCheck;
using FsCheck.Fluent;
using Google.Protobuf.WellKnownTypes;

namespace SensorPipeline.Core.Tests;

public class ReadingDecoderTests
{
    [Fact]
    public void TryDecode_WeatherReading_ReadsEveryField()
    {
        var source = Builders.Weather("ws-42", 7);
        var ok = ReadingDecoder.TryDecode(source.ToByteArray(), out var view);

        Assert.True(ok);
        Assert.Equal("ws-42", Encoding.UTF8.GetString(view.DeviceIdUtf8));
        Assert.Equal(SensorKind.Weather, view.Kind);
        Assert.Equal(7ul, view.Sequence);
        Assert.Equal(Builders.Observed.AddSeconds(7), view.ObservedAt);
        Assert.Equal((47.6, -122.3, 56.5), (view.Latitude, view.Longitude, view.AltitudeM));
        Assert.Equal(SensorKind.Weather.Definition().PayloadField, view.PayloadField);
        Assert.Equal(1013.25, view.Measurements[2]);
        Assert.Equal(0.4, view.Measurements[5]);
    }

    [Fact]
    public void TryDecode_UnknownFields_AreSkippedAsProtobufRequires()
    {
        var bytes = Builders.Seismic().ToByteArray().Concat(new byte[] { 0xA0, 0x06, 0x05, 0xAA, 0x06, 0x01, 0x7F }).ToArray(); // field 100 varint, field 101 bytes
        Assert.True(ReadingDecoder.TryDecode(bytes, out var view));
        Assert.Equal(SensorKind.Seismic.Definition().PayloadField, view.PayloadField);
        Assert.Equal(9.81, view.Measurements[5]);
    }

    [Fact]
    public void TryDecode_TruncatedMessage_Fails()
    {
        var bytes = Builders.Weather().ToByteArray();
        for (var cut = 1; cut < bytes.Length; cut++)
        {
            // Every strict prefix either fails or decodes to something that validation rejects; none may throw.
            if (ReadingDecoder.TryDecode(bytes.AsSpan(0, cut), out var view))
            {
                Assert.NotEqual(DeadLetterReason.None, ReadingValidator.Validate(view));
            }
        }
    }

    [Fact]
    public void Decode_MatchesGoogleProtobuf_ForRandomReadings()
    {
        var gen =
            from device in Gen.Elements("a", "ws-0001", "sm-ü-9", new string('x', 128))
            from seq in ArbMap.Default.GeneratorFor<ulong>()
            from seconds in Gen.Choose(0, int.MaxValue)
            from nanos in Gen.Choose(0, 999_999_999)
            from lat in ArbMap.Default.GeneratorFor<NormalFloat>()
            from lon in ArbMap.Default.GeneratorFor<NormalFloat>()
            from weather in ArbMap.Default.GeneratorFor<bool>()
            from v in ArbMap.Default.GeneratorFor<NormalFloat>()
            select (device, seq, seconds, nanos, lat.Get, lon.Get, weather, v.Get);

        Prop.ForAll(gen.ToArbitrary(), t =>
        {
            var reading = new Reading
            {
                DeviceId = t.device,
                Kind = t.weather ? SensorKind.Weather : SensorKind.Seismic,
                Sequence = t.seq,
                ObservedAt = new Timestamp { Seconds = t.seconds, Nanos = t.nanos },
                Location = new Location { Latitude = t.Item5, Longitude = t.Item6, AltitudeM = t.Item8 },
            };
            if (t.weather)
            {
                reading.Weather = new WeatherPayload { TemperatureC = t.Item8, RainMmph = -t.Item8 };
            }
            else
            {
                reading.Seismic = new SeismicPayload { Magnitude = t.Item8, AccelerationZMps2 = t.Item5 };
            }

            var ok = ReadingDecoder.TryDecode(reading.ToByteArray(), out var view);
            return ok
                && Encoding.UTF8.GetString(view.DeviceIdUtf8) == reading.DeviceId
                && view.Sequence == reading.Sequence
                && view.ObservedSeconds == reading.ObservedAt.Seconds
                && view.ObservedNanos == reading.ObservedAt.Nanos
                && view.Latitude.Equals(reading.Location.Latitude)
                && view.Longitude.Equals(reading.Location.Longitude)
                && view.AltitudeM.Equals(reading.Location.AltitudeM)
                && (t.weather
                    ? view.PayloadField == SensorKind.Weather.Definition().PayloadField && view.Measurements[0].Equals(reading.Weather.TemperatureC) && view.Measurements[5].Equals(reading.Weather.RainMmph)
                    : view.PayloadField == SensorKind.Seismic.Definition().PayloadField && view.Measurements[0].Equals(reading.Seismic.Magnitude) && view.Measurements[5].Equals(reading.Seismic.AccelerationZMps2));
        }).QuickCheckThrowOnFailure();
    }

    [Fact]
    public void Decode_RandomBytes_NeverThrows()
    {
        Prop.ForAll<byte[]>(bytes =>
        {
            ReadingDecoder.TryDecode(bytes, out _);
            ReadingBatchReader.TryCheckFraming(bytes, out _);
            return true;
        }).QuickCheckThrowOnFailure();
    }

    [Fact]
    public void ParseFrom_CheckedInV1Fixture_DecodesWithTodaysSchema()
    {
        // Written once by the v1 schema (see Fixtures/README.md). If a field is renumbered or retyped
        // incompatibly, this fails: old producers and old envelopes in the hubs would be misread.
        var bytes = File.ReadAllBytes(Path.Combine(AppContext.BaseDirectory, "Fixtures", "reading-batch-v1.bin"));
        var batch = ReadingBatch.Parser.ParseFrom(bytes);

        Assert.Equal(2, batch.Readings.Count);
        var weather = batch.Readings[0];
        Assert.Equal("fixture-ws-1", weather.DeviceId);
        Assert.Equal(SensorKind.Weather, weather.Kind);
        Assert.Equal(41ul, weather.Sequence);
        Assert.Equal(1_763_726_400L, weather.ObservedAt.Seconds);
        Assert.Equal(47.6062, weather.Location.Latitude);
        Assert.Equal(-122.3321, weather.Location.Longitude);
        Assert.Equal(56, weather.Location.AltitudeM);
        Assert.Equal(12.5, weather.Weather.TemperatureC);
        Assert.Equal(81, weather.Weather.RelativeHumidityPct);
        Assert.Equal(1013.25, weather.Weather.PressureHpa);
        Assert.Equal(4.2, weather.Weather.WindSpeedMps);
        Assert.Equal(270, weather.Weather.WindDirectionDeg);
        Assert.Equal(0.5, weather.Weather.RainMmph);
        var seismic = batch.Readings[1];
        Assert.Equal("fixture-sm-1", seismic.DeviceId);
        Assert.Equal(SensorKind.Seismic, seismic.Kind);
        Assert.Equal(9ul, seismic.Sequence);
        Assert.Equal(3.4, seismic.Seismic.Magnitude);
        Assert.Equal(12, seismic.Seismic.DepthKm);
        Assert.Equal(0.05, seismic.Seismic.PeakGroundAccelerationG);
        Assert.Equal(0.1, seismic.Seismic.AccelerationXMps2);
        Assert.Equal(-0.2, seismic.Seismic.AccelerationYMps2);
        Assert.Equal(9.7, seismic.Seismic.AccelerationZMps2);

        // And our own span decoder reads the same bytes the same way.
        var count = 0;
        foreach (var raw in ReadingBatchReader.EnumerateReadings(bytes))
        {
            Assert.True(ReadingDecoder.TryDecode(raw, out var view));
            Assert.Equal(DeadLetterReason.None, ReadingValidator.Validate(view));
            count++;
        }

        Assert.Equal(2, count);
    }
}
