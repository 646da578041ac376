using System.Text.Json;
using Google.Protobuf;
using Google.Protobuf.WellKnownTypes;
using SensorPipeline.Protos;

namespace SensorPipeline.Explorer.Tests;

/// <summary>The peek's decoding: a batch as its readings, an envelope as its readings and sources, anything else as
/// its size, text and hex.</summary>
public sealed class EventBodyDecoderTests
{
    private static Reading Weather(string device, ulong sequence) => new()
    {
        DeviceId = device,
        Kind = SensorKind.Weather,
        Sequence = sequence,
        ObservedAt = Timestamp.FromDateTimeOffset(new DateTimeOffset(2026, 1, 2, 3, 4, 5, TimeSpan.Zero)),
        Location = new Location { Latitude = 51.5, Longitude = -0.12 },
        Weather = new WeatherPayload { TemperatureC = 12.5 },
    };

    private static JsonElement Decode(byte[] body)
    {
        using var buffer = new MemoryStream();
        using (var writer = new Utf8JsonWriter(buffer))
        {
            writer.WriteStartObject();
            EventBodyDecoder.Write(writer, body);
            writer.WriteEndObject();
        }

        return JsonDocument.Parse(buffer.ToArray()).RootElement;
    }

    [Fact]
    public void Write_ReadingBatch_ReadingsDecoded()
    {
        var batch = new ReadingBatch { Readings = { Weather("dev-1", 7), Weather("dev-2", 8) } };

        var json = Decode(batch.ToByteArray());

        Assert.Equal("ReadingBatch", json.GetProperty("format").GetString());
        var readings = json.GetProperty("readings").EnumerateArray().ToList();
        Assert.Equal(["dev-1", "dev-2"], readings.Select(r => r.GetProperty("deviceId").GetString()));
        Assert.Equal(7UL, readings[0].GetProperty("sequence").GetUInt64());
        Assert.Equal(12.5, readings[0].GetProperty("weather").GetProperty("temperatureC").GetDouble());
        Assert.Equal(new DateTimeOffset(2026, 1, 2, 3, 4, 5, TimeSpan.Zero), readings[0].GetProperty("observedAt").GetDateTimeOffset());
    }

    [Fact]
    public void Write_ForwardEnvelope_ReadingsAndSourcesDecoded()
    {
        var envelope = new ForwardEnvelope
        {
            Kind = SensorKind.Weather,
            ForwardedTimeUnixMs = 1_700_000_000_000,
            Sources = { new SourcePosition { PartitionId = "3", SequenceNumber = 42, EnqueuedTimeUnixMs = 1_700_000_000_000 } },
            Readings = { new ForwardedReading { Reading = Weather("dev-9", 1), SourceIndex = 0 } },
        };

        var json = Decode(envelope.ToByteArray());

        Assert.Equal("ForwardEnvelope", json.GetProperty("format").GetString());
        Assert.Equal("Weather", json.GetProperty("kind").GetString());
        Assert.Equal(42, json.GetProperty("sources")[0].GetProperty("sequenceNumber").GetInt64());
        Assert.Equal("dev-9", json.GetProperty("readings")[0].GetProperty("deviceId").GetString());
    }

    [Fact]
    public void Write_NeitherFormat_SizeTextAndHex()
    {
        var json = Decode("hello"u8.ToArray());

        Assert.Equal("bytes", json.GetProperty("format").GetString());
        Assert.Equal(5, json.GetProperty("size").GetInt32());
        Assert.Equal("hello", json.GetProperty("text").GetString());
        Assert.Equal("68656C6C6F", json.GetProperty("hex").GetString());
    }
}
