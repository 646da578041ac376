using System.Buffers;
using System.Text.Json;
using Google.Protobuf;
using Google.Protobuf.WellKnownTypes;
using SensorPipeline.Core.DeadLetters;
using SensorPipeline.Core.DeviceStates;
using SensorPipeline.Core.GeoJson;
using SensorPipeline.Core.Policies;
using SensorPipeline.Core.Readings;
using SourcePosition = SensorPipeline.Core.Readings.SourcePosition;

namespace SensorPipeline.LoadGen.Tests;

/// <summary>Cosmos documents written by core's own writers, so verify is tested against exactly what the handler stores.</summary>
internal static class CoreDocuments
{
    private static readonly SourcePosition Source = new("0", 42, EnqueuedAt.ToUnixTimeMilliseconds());

    /// <summary>When every document's ingestion event was enqueued.</summary>
    public static DateTimeOffset EnqueuedAt => Builders.Observed.AddSeconds(1);

    public static byte[] Reading(string deviceId, ulong sequence, long? staleByMs = null) =>
        Write(deviceId, sequence, (writer, view) => GeoJsonFeatureWriter.Write(writer, view, Source, staleByMs));

    /// <summary>The same reading document under another id (as another tool or a hand-made copy would store it).</summary>
    public static byte[] ReadingUnderOtherId(string deviceId, ulong sequence)
    {
        var document = System.Text.Json.Nodes.JsonNode.Parse(Reading(deviceId, sequence))!;
        document["id"] = $"copy-{deviceId}-{sequence}";
        return System.Text.Encoding.UTF8.GetBytes(document.ToJsonString());
    }

    public static byte[] DeviceState(string deviceId, ulong sequence) =>
        Write(deviceId, sequence, (writer, view) => DeviceStateWriter.Write(writer, view, Source, DocumentIds.ReadingId(deviceId, sequence, Builders.Observed), NewerWins.VersionKey(sequence, Builders.Observed)));

    public static byte[] DeadLetter(byte[] payload, long sequenceNumber) =>
        DeadLetterWriter.ToUtf8(new DeadLetter("splitter", DeadLetterReason.Undecodable, Source with { SequenceNumber = sequenceNumber }, null, null, payload), Builders.Observed);

    /// <summary>The dead letter's id (its partition key).</summary>
    public static string DeadLetterId(long sequenceNumber) =>
        new DeadLetter("splitter", DeadLetterReason.Undecodable, Source with { SequenceNumber = sequenceNumber }, null, null, Array.Empty<byte>()).Id;

    private delegate void ViewWriter(Utf8JsonWriter writer, ReadingView view);

    private static byte[] Write(string deviceId, ulong sequence, ViewWriter write)
    {
        var raw = new Reading
        {
            DeviceId = deviceId,
            Kind = SensorKind.Weather,
            Sequence = sequence,
            ObservedAt = Timestamp.FromDateTimeOffset(Builders.Observed),
            Location = new Location { Latitude = 47.1, Longitude = 8.5, AltitudeM = 400 },
            Weather = new WeatherPayload { TemperatureC = 11.5, RelativeHumidityPct = 70, PressureHpa = 965, WindSpeedMps = 2, WindDirectionDeg = 180 },
        }.ToByteArray();
        Assert.True(ReadingDecoder.TryDecode(raw, out var view));
        var buffer = new ArrayBufferWriter<byte>();
        using (var writer = new Utf8JsonWriter(buffer))
        {
            write(writer, view);
        }

        return buffer.WrittenSpan.ToArray();
    }
}
