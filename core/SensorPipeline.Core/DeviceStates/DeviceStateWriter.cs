using System.Text.Json;
using SensorPipeline.Core.GeoJson;
using SensorPipeline.Core.Readings;

namespace SensorPipeline.Core.DeviceStates;

/// <summary>
/// Writes a device's latest-state document for the <c>devices</c> container: a GeoJSON Feature whose
/// id is the device id, plus <c>version</c> (see <see cref="NewerWins.VersionKey"/>), the
/// member the guarded write compares: it reads the stored state, and replaces it with its ETag as the condition only
/// when this version is newer.
/// </summary>
public static class DeviceStateWriter
{
    /// <summary>The guard's property name: the guarded write compares the stored document's value with the new one's.</summary>
    public const string VersionProperty = "version";

    public static void Write(Utf8JsonWriter writer, in ReadingView reading, in SourcePosition source, string readingId, string version)
    {
        ArgumentNullException.ThrowIfNull(writer);
        writer.WriteStartObject();
        writer.WriteString("id", reading.DeviceIdUtf8);
        writer.WriteString("deviceId", reading.DeviceIdUtf8);
        writer.WriteString("type", "Feature");
        writer.WriteString(VersionProperty, version);
        writer.WriteStartObject("geometry");
        writer.WriteString("type", "Point");
        writer.WriteStartArray("coordinates");
        writer.WriteNumberValue(reading.Longitude);
        writer.WriteNumberValue(reading.Latitude);
        writer.WriteNumberValue(reading.AltitudeM);
        writer.WriteEndArray();
        writer.WriteEndObject();
        writer.WriteStartObject("properties");
        writer.WriteString("kind", GeoJsonFeatureWriter.KindOf(reading).EncodedName);
        writer.WriteNumber("sequence", reading.Sequence);
        writer.WriteString("observedAt", reading.ObservedAt.UtcDateTime);
        writer.WriteString("enqueuedAt", source.EnqueuedTime.UtcDateTime);
        writer.WriteString("readingId", readingId);
        GeoJsonFeatureWriter.WriteMeasurements(writer, reading);
        writer.WriteEndObject();
        writer.WriteEndObject();
    }
}
