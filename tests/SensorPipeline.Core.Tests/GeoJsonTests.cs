using System.Buffers;
using System.Text.Json;
using FsCheck;
using FsCheck.Fluent;
using Google.Protobuf.WellKnownTypes;
using SensorPipeline.Core.GeoJson;

namespace SensorPipeline.Core.Tests;

public class GeoJsonTests
{
    private static readonly Readings.SourcePosition Source = new("3", 1234, Builders.Observed.ToUnixTimeMilliseconds());

    private static JsonDocument Render(Reading reading, long? staleBy = null)
    {
        Assert.True(ReadingDecoder.TryDecode(reading.ToByteArray(), out var view));
        Assert.Equal(DeadLetterReason.None, ReadingValidator.Validate(view));
        var buffer = new ArrayBufferWriter<byte>();
        using (var writer = new Utf8JsonWriter(buffer))
        {
            GeoJsonFeatureWriter.Write(writer, view, Source, staleBy);
        }

        return JsonDocument.Parse(buffer.WrittenMemory);
    }

    [Fact]
    public void Write_WeatherReading_IsRfc7946FeatureWithIdAndPartitionKey()
    {
        using var doc = Render(Builders.Weather("ws-7", 42, lat: 47.6, lon: -122.3));
        var root = doc.RootElement;
        Assert.Equal("Feature", root.GetProperty("type").GetString());
        Assert.Equal(Builders.ReadingId("ws-7", 42), root.GetProperty("id").GetString());
        Assert.Equal("ws-7", root.GetProperty("deviceId").GetString());
        var coordinates = root.GetProperty("geometry").GetProperty("coordinates").EnumerateArray().Select(e => e.GetDouble()).ToArray();
        Assert.Equal("Point", root.GetProperty("geometry").GetProperty("type").GetString());
        Assert.Equal(new[] { -122.3, 47.6, 56.5 }, coordinates); // [lon, lat, alt]
        var p = root.GetProperty("properties");
        Assert.Equal("weather", p.GetProperty("kind").GetString());
        Assert.Equal(42ul, p.GetProperty("sequence").GetUInt64());
        Assert.Equal(Builders.Observed.AddSeconds(42), p.GetProperty("observedAt").GetDateTimeOffset());
        Assert.Equal(Builders.Observed, p.GetProperty("enqueuedAt").GetDateTimeOffset());
        Assert.Equal("3", p.GetProperty("sourcePartition").GetString());
        Assert.Equal(1013.25, p.GetProperty("pressureHpa").GetDouble());
        Assert.False(p.TryGetProperty("staleByMs", out _));
    }

    [Fact]
    public void Write_StaleSeismicReading_CarriesStaleness()
    {
        using var doc = Render(Builders.Seismic(), staleBy: 1500);
        var p = doc.RootElement.GetProperty("properties");
        Assert.Equal("seismic", p.GetProperty("kind").GetString());
        Assert.Equal(1500, p.GetProperty("staleByMs").GetInt64());
        Assert.Equal(9.81, p.GetProperty("accelerationZMps2").GetDouble());
    }

    [Fact]
    public void Write_DeviceIdNeedingEscapes_StaysValidJson()
    {
        using var doc = Render(Builders.Weather("dev \"quoted\" ü"));
        Assert.Equal("dev \"quoted\" ü", doc.RootElement.GetProperty("deviceId").GetString());
        Assert.Equal(Builders.ReadingId("dev \"quoted\" ü", 1), doc.RootElement.GetProperty("id").GetString());
    }

    [Fact]
    public void Write_AnyValidReading_ParsesBackAsValidGeoJson()
    {
        var gen =
            from lat in Gen.Choose(-90_000_000, 90_000_000)
            from lon in Gen.Choose(-180_000_000, 180_000_000)
            from alt in ArbMap.Default.GeneratorFor<NormalFloat>()
            from temp in ArbMap.Default.GeneratorFor<NormalFloat>()
            from seq in ArbMap.Default.GeneratorFor<ulong>()
            from device in Gen.Elements("a", "ws-1", "sm \"x\" ü", "日本-1")
            select (lat / 1e6, lon / 1e6, alt.Get, temp.Get, Math.Max(1ul, seq), device);
        Prop.ForAll(gen.ToArbitrary(), t =>
        {
            var reading = Builders.Weather(t.device, t.Item5, t.Item1, t.Item2);
            reading.Location.AltitudeM = t.Item3;
            reading.Weather.TemperatureC = t.Item4;
            using var doc = Render(reading);
            var root = doc.RootElement;
            var geometry = root.GetProperty("geometry");
            var c = geometry.GetProperty("coordinates");
            return root.GetProperty("type").GetString() == "Feature"
                && geometry.GetProperty("type").GetString() == "Point"
                && c.GetArrayLength() == 3
                && c[0].GetDouble().Equals(t.Item2) && c[0].GetDouble() is >= -180 and <= 180
                && c[1].GetDouble().Equals(t.Item1) && c[1].GetDouble() is >= -90 and <= 90
                && c[2].GetDouble().Equals(t.Item3)
                && root.GetProperty("properties").ValueKind == JsonValueKind.Object
                && root.GetProperty("properties").GetProperty("temperatureC").GetDouble().Equals(t.Item4)
                && root.GetProperty("id").GetString() == Builders.ReadingId(reading);
        }).QuickCheckThrowOnFailure();
    }

    [Fact]
    public void ReadingId_IsDeterministic_DependsOnlyOnDeviceSequenceAndObservedTime()
    {
        Prop.ForAll<NonEmptyString, ulong, int>((device, sequence, noise) =>
        {
            var a = Builders.Weather(device.Get.Replace("/", "", StringComparison.Ordinal), Math.Max(1, sequence % 1_000_000_000));
            var b = a.Clone();
            b.Weather.TemperatureC = noise; // other content differs (a redelivery re-encoded): the id must not
            b.Location.Latitude = noise % 90;
            Span<byte> idA = stackalloc byte[DocumentIds.MaxReadingIdBytes + 400];
            Span<byte> idB = stackalloc byte[DocumentIds.MaxReadingIdBytes + 400];
            var lengthA = DocumentIds.WriteReadingId(System.Text.Encoding.UTF8.GetBytes(a.DeviceId), a.Sequence, a.ObservedAt.ToDateTimeOffset(), idA);
            var lengthB = DocumentIds.WriteReadingId(System.Text.Encoding.UTF8.GetBytes(b.DeviceId), b.Sequence, b.ObservedAt.ToDateTimeOffset(), idB);
            return idA[..lengthA].SequenceEqual(idB[..lengthB])
                && System.Text.Encoding.UTF8.GetString(idA[..lengthA]) == Builders.ReadingId(a);
        }).QuickCheckThrowOnFailure();
    }

    [Fact]
    public void ReadingId_SameSequenceObservedAtAnotherTime_DiffersAsASequenceResetNeeds()
    {
        Prop.ForAll<ulong, int, int>((sequence, secondsA, secondsB) =>
        {
            var at = Builders.Observed;
            var a = DocumentIds.ReadingId("dev", sequence, at.AddSeconds(secondsA));
            var b = DocumentIds.ReadingId("dev", sequence, at.AddSeconds(secondsB));
            return (a == b) == (secondsA == secondsB);
        }).QuickCheckThrowOnFailure();
    }

    [Fact]
    public void ReadingId_OtherSequenceOrDevice_Differs()
    {
        var at = Builders.Observed;
        Assert.NotEqual(DocumentIds.ReadingId("a", 1, at), DocumentIds.ReadingId("a", 2, at));
        Assert.NotEqual(DocumentIds.ReadingId("a", 12, at), DocumentIds.ReadingId("a1", 2, at));
        Assert.Equal($"a:12:{at.UtcTicks}", DocumentIds.ReadingId("a", 12, at));
    }
}
