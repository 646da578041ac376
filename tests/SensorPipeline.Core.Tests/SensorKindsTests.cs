using Google.Protobuf.Reflection;

namespace SensorPipeline.Core.Tests;

public class SensorKindsTests
{
    [Theory]
    [InlineData(SensorKind.Weather, "weather", Reading.WeatherFieldNumber)]
    [InlineData(SensorKind.Seismic, "seismic", Reading.SeismicFieldNumber)]
    public void Name_KnownKind_HasItsNameAndPayload(SensorKind kind, string name, int payloadField)
    {
        Assert.True(kind.IsKnown());
        Assert.Equal(name, kind.Name());
        Assert.Equal(name, kind.EncodedName().Value);
        Assert.Equal(payloadField, kind.Definition().PayloadField);
    }

    [Theory]
    [InlineData(SensorKind.Unspecified)]
    [InlineData((SensorKind)7)]
    public void Name_UnknownKind_ThrowsAndHasNoDefinition(SensorKind kind)
    {
        Assert.False(kind.IsKnown());
        Assert.Throws<ArgumentOutOfRangeException>(() => kind.Name());
        Assert.Null(SensorKindCatalog.Default.Find(kind));
    }

    /// <summary>sensor-kinds.json and readings.proto name the same kinds: a kind added to one and not the other fails here.</summary>
    [Fact]
    public void Default_EveryKind_MatchesTheProto()
    {
        var kinds = SensorKindCatalog.Default.All;
        var payload = Reading.Descriptor.Oneofs.Single(o => o.Name == "payload");
        Assert.Equal(payload.Fields.Select(f => f.FieldNumber).Order(), kinds.Select(k => k.PayloadField).Order());
        Assert.Equal(ReadingsReflection.Descriptor.EnumTypes.Single(e => e.Name == nameof(SensorKind)).Values.Where(v => v.Number != 0).Select(v => v.Number).Order(), kinds.Select(k => (int)k.Kind).Order());
        foreach (var kind in kinds)
        {
            Assert.Equal($"SENSOR_KIND_{kind.Name.ToUpperInvariant()}", ReadingsReflection.Descriptor.EnumTypes.Single(e => e.Name == nameof(SensorKind)).FindValueByNumber((int)kind.Kind).Name);
            var field = payload.Fields.Single(f => f.FieldNumber == kind.PayloadField);
            Assert.Equal(kind.Name, field.Name);
            var measurements = field.MessageType.Fields.InFieldNumberOrder();
            Assert.All(measurements, m => Assert.Equal(FieldType.Double, m.FieldType));
            Assert.Equal(Enumerable.Range(1, measurements.Count), measurements.Select(m => m.FieldNumber));
            Assert.Equal(measurements.Select(m => m.JsonName), kind.Measurements.Select(m => m.Name));
        }
    }

    [Theory]
    [InlineData("""{ "kinds": [] }""", "\"kinds\" must be a non-empty array")]
    [InlineData("""{ "kinds": [ { "name": "a", "kind": 1, "payloadField": 10, "processor": "P", "hub": "a", "consumerGroup": "a-p", "hubSetting": "AHub", "measurements": [] } ] }""", "1 to 16 measurements")]
    [InlineData("""{ "kinds": [ { "name": "a", "kind": 1, "payloadField": 3, "processor": "P", "hub": "a", "consumerGroup": "a-p", "hubSetting": "AHub", "measurements": [ { "name": "x", "min": 0, "max": 1 } ] } ] }""", "payloadField 6 to")]
    [InlineData("""{ "kinds": [ { "name": "a", "kind": 1, "payloadField": 10, "hub": "a", "consumerGroup": "a-p", "hubSetting": "AHub", "measurements": [ { "name": "x", "min": 0, "max": 1 } ] } ] }""", "\"processor\" must be")]
    public void Parse_BadFile_NamesTheFileAndTheMember(string json, string expected)
    {
        var error = Assert.Throws<InvalidDataException>(() => SensorKindCatalog.Parse(json, "kinds.json"));
        Assert.StartsWith("kinds.json: ", error.Message, StringComparison.Ordinal);
        Assert.Contains(expected, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Parse_TwoKindsShareAHub_Throws()
    {
        var json = SyntheticKind.CatalogJson().Replace("\"hub\":\"airquality\"", "\"hub\":\"weather\"", StringComparison.Ordinal);
        var error = Assert.Throws<InvalidDataException>(() => SensorKindCatalog.Parse(json, "kinds.json"));
        Assert.Contains("share the hub weather", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Encode_WeatherMeasurements_SetThePayloadTheGeneratedCodeReads()
    {
        var reading = new Reading { DeviceId = "ws-1", Kind = SensorKind.Weather };

        reading.MergeFrom(PayloadEncoder.Encode(SensorKind.Weather.Definition(), [12.5, 81, 1013.25, 4.2, 270, 0.5]));

        Assert.Equal(Reading.PayloadOneofCase.Weather, reading.PayloadCase);
        Assert.Equal(1013.25, reading.Weather.PressureHpa);
        Assert.Equal(0.5, reading.Weather.RainMmph);
        Assert.Throws<ArgumentException>(() => PayloadEncoder.Encode(SensorKind.Weather.Definition(), [1, 2]));
    }
}
