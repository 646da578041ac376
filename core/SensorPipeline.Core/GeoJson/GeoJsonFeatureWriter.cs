using System.Text.Json;
using SensorPipeline.Core.Readings;

namespace SensorPipeline.Core.GeoJson;

/// <summary>
/// Writes a reading as an RFC 7946 GeoJSON Feature straight to UTF-8 — no object model, no reflection
/// serializer on the hot path. The document is also a Cosmos DB item: <c>id</c> (deterministic, see
/// <see cref="DocumentIds"/>) and <c>deviceId</c> (the partition key) are top-level members; RFC 7946
/// §6.1 allows such foreign members, and every GeoJSON reader ignores them.
/// </summary>
public static class GeoJsonFeatureWriter
{
    // Property names pre-encoded once: JsonEncodedText skips escaping work on every write.
    private static readonly JsonEncodedText Id = JsonEncodedText.Encode("id");
    private static readonly JsonEncodedText DeviceId = JsonEncodedText.Encode("deviceId");
    private static readonly JsonEncodedText Type = JsonEncodedText.Encode("type");
    private static readonly JsonEncodedText Feature = JsonEncodedText.Encode("Feature");
    private static readonly JsonEncodedText Geometry = JsonEncodedText.Encode("geometry");
    private static readonly JsonEncodedText Point = JsonEncodedText.Encode("Point");
    private static readonly JsonEncodedText Coordinates = JsonEncodedText.Encode("coordinates");
    private static readonly JsonEncodedText Properties = JsonEncodedText.Encode("properties");
    private static readonly JsonEncodedText Kind = JsonEncodedText.Encode("kind");
    private static readonly JsonEncodedText Sequence = JsonEncodedText.Encode("sequence");
    private static readonly JsonEncodedText ObservedAt = JsonEncodedText.Encode("observedAt");
    private static readonly JsonEncodedText EnqueuedAt = JsonEncodedText.Encode("enqueuedAt");
    private static readonly JsonEncodedText SourcePartition = JsonEncodedText.Encode("sourcePartition");
    private static readonly JsonEncodedText SourceSequenceNumber = JsonEncodedText.Encode("sourceSequenceNumber");
    private static readonly JsonEncodedText StaleByMs = JsonEncodedText.Encode("staleByMs");
    private static readonly JsonEncodedText TemperatureC = JsonEncodedText.Encode("temperatureC");
    private static readonly JsonEncodedText RelativeHumidityPct = JsonEncodedText.Encode("relativeHumidityPct");
    private static readonly JsonEncodedText PressureHpa = JsonEncodedText.Encode("pressureHpa");
    private static readonly JsonEncodedText WindSpeedMps = JsonEncodedText.Encode("windSpeedMps");
    private static readonly JsonEncodedText WindDirectionDeg = JsonEncodedText.Encode("windDirectionDeg");
    private static readonly JsonEncodedText RainMmph = JsonEncodedText.Encode("rainMmph");
    private static readonly JsonEncodedText Magnitude = JsonEncodedText.Encode("magnitude");
    private static readonly JsonEncodedText DepthKm = JsonEncodedText.Encode("depthKm");
    private static readonly JsonEncodedText PeakGroundAccelerationG = JsonEncodedText.Encode("peakGroundAccelerationG");
    private static readonly JsonEncodedText AccelerationXMps2 = JsonEncodedText.Encode("accelerationXMps2");
    private static readonly JsonEncodedText AccelerationYMps2 = JsonEncodedText.Encode("accelerationYMps2");
    private static readonly JsonEncodedText AccelerationZMps2 = JsonEncodedText.Encode("accelerationZMps2");

    /// <summary>
    /// Writes one Feature. The reading must have passed <see cref="ReadingValidator"/> (finite numbers,
    /// coordinates in range). <paramref name="staleByMs"/> is written when the reading is archived as stale.
    /// </summary>
    public static void Write(Utf8JsonWriter writer, in ReadingView reading, in SourcePosition source, long? staleByMs = null)
    {
        ArgumentNullException.ThrowIfNull(writer);
        Span<byte> id = stackalloc byte[DocumentIds.MaxReadingIdBytes];
        var idLength = DocumentIds.WriteReadingId(reading.DeviceIdUtf8, reading.Sequence, reading.ObservedAt, id);

        writer.WriteStartObject();
        writer.WriteString(Id, id[..idLength]);
        writer.WriteString(DeviceId, reading.DeviceIdUtf8);
        writer.WriteString(Type, Feature);

        writer.WriteStartObject(Geometry);
        writer.WriteString(Type, Point);
        writer.WriteStartArray(Coordinates);
        FastDouble.WriteNumberValue(writer, reading.Longitude); // RFC 7946 §3.1.1: longitude first
        FastDouble.WriteNumberValue(writer, reading.Latitude);
        FastDouble.WriteNumberValue(writer, reading.AltitudeM);
        writer.WriteEndArray();
        writer.WriteEndObject();

        writer.WriteStartObject(Properties);
        writer.WriteString(Kind, KindOf(reading).EncodedName);
        writer.WriteNumber(Sequence, reading.Sequence);
        writer.WriteString(ObservedAt, reading.ObservedAt.UtcDateTime);
        writer.WriteString(EnqueuedAt, source.EnqueuedTime.UtcDateTime);
        writer.WriteString(SourcePartition, source.PartitionId);
        writer.WriteNumber(SourceSequenceNumber, source.SequenceNumber);
        if (staleByMs is { } stale)
        {
            writer.WriteNumber(StaleByMs, stale);
        }

        WriteMeasurements(writer, reading);
        writer.WriteEndObject();
        writer.WriteEndObject();
    }

    /// <summary>Writes the measurement members of the reading's payload into the current object, named as its kind defines them.</summary>
    public static void WriteMeasurements(Utf8JsonWriter writer, in ReadingView reading)
    {
        ArgumentNullException.ThrowIfNull(writer);
        var names = KindOf(reading).EncodedMeasurementNames;
        for (var i = 0; i < names.Length; i++)
        {
            FastDouble.WriteNumber(writer, names[i], reading.Measurements[i]);
        }
    }

    /// <summary>The reading's kind as its decoder's catalog defines it; a reading that passed validation has one.</summary>
    internal static SensorKindDefinition KindOf(in ReadingView reading) =>
        reading.Definition ?? throw new ArgumentException($"kind {reading.Kind} is not in the decoder's catalog: validate before writing", nameof(reading));
}
