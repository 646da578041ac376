using System.Text.Json;
using SensorPipeline.Core.GeoJson;
using SensorPipeline.Core.Readings;

namespace SensorPipeline.DevHost.Explorer;

/// <summary>One encoded reading as JSON through the core's <see cref="ReadingDecoder"/>: device, kind, sequence, time,
/// place and measurements; a reading the decoder refuses as its bytes.</summary>
public static class ReadingJson
{
    // The protobuf Timestamp's range (0001-01-01 to 9999-12-31), outside which ObservedAt cannot be rendered.
    private const long MinSeconds = -62_135_596_800;
    private const long MaxSeconds = 253_402_300_799;

    public static void Write(Utf8JsonWriter writer, ReadOnlySpan<byte> encoded, int? sourceIndex)
    {
        ArgumentNullException.ThrowIfNull(writer);
        writer.WriteStartObject();
        if (sourceIndex is { } index)
        {
            writer.WriteNumber("sourceIndex", index);
        }

        if (!ReadingDecoder.TryDecode(encoded, out var reading))
        {
            writer.WriteString("error", "not a decodable Reading");
            EventBodyDecoder.WriteBytes(writer, encoded);
            writer.WriteEndObject();
            return;
        }

        writer.WriteString("deviceId", reading.DeviceIdUtf8);
        writer.WriteString("kind", reading.Kind.ToString());
        writer.WriteNumber("sequence", reading.Sequence);
        if (reading.HasObservedAt && reading.ObservedSeconds is >= MinSeconds and <= MaxSeconds && reading.ObservedNanos is >= 0 and < 1_000_000_000)
        {
            writer.WriteString("observedAt", reading.ObservedAt);
        }
        else if (reading.HasObservedAt)
        {
            writer.WriteString("observedAtError", "outside the range of a protobuf Timestamp");
        }

        if (reading.HasLocation)
        {
            writer.WriteNumber("latitude", reading.Latitude);
            writer.WriteNumber("longitude", reading.Longitude);
            writer.WriteNumber("altitudeM", reading.AltitudeM);
        }

        WriteMeasurements(writer, ref reading);
        writer.WriteEndObject();
    }

    /// <summary>The measurements as the stored documents name them (the core's GeoJSON writer), under the payload's name.</summary>
    private static void WriteMeasurements(Utf8JsonWriter writer, ref ReadingView reading)
    {
        // A kind in the catalog (sensor-kinds.json) is written under its name; a reading of an unknown kind has no measurements to name.
        if (reading.Definition is { } kind)
        {
            writer.WriteStartObject(kind.EncodedName);
            GeoJsonFeatureWriter.WriteMeasurements(writer, reading);
            writer.WriteEndObject();
        }
    }
}
