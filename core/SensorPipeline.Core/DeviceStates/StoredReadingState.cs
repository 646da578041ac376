using System.Globalization;
using System.Text.Json;
using SensorPipeline.Core.GeoJson;

namespace SensorPipeline.Core.DeviceStates;

/// <summary>What <see cref="StoredReadingState"/> rendered: the device, and the version its state carries.</summary>
public readonly record struct StoredState(string DeviceId, string Version, ulong Sequence, DateTimeOffset ObservedAt);

/// <summary>
/// The device state a stored reading gives its device, rendered from the reading's GeoJSON Feature as
/// <see cref="GeoJsonFeatureWriter"/> stored it: the same members <see cref="DeviceStateWriter"/> writes from the reading
/// itself (version, geometry, kind, sequence, observed and enqueued times, the reading's id, its measurements), so a
/// state rebuilt from <c>readings</c> after a crash is the one the live path would have written. Not on the hot path:
/// it parses the whole document.
/// </summary>
public static class StoredReadingState
{
    /// <summary>Members of a stored reading's properties that describe where it was stored, not the device's state.</summary>
    private static readonly HashSet<string> StorageOnly = new(StringComparer.Ordinal) { "sourcePartition", "sourceSequenceNumber", "staleByMs" };

    /// <summary>
    /// Writes the device state of the reading <paramref name="feature"/>. False, writing nothing, when the document is not
    /// a reading Feature, or when the reading may not become its device's state: dated more than
    /// <paramref name="maxClockSkew"/> after its ingestion event was enqueued (<see cref="NewerWins.MayWin"/>).
    /// </summary>
    public static bool TryWrite(ReadOnlySpan<byte> feature, TimeSpan maxClockSkew, Utf8JsonWriter writer, out StoredState state)
    {
        var reader = new Utf8JsonReader(feature);
        using var document = JsonDocument.ParseValue(ref reader);
        return TryWrite(document.RootElement, maxClockSkew, writer, out state);
    }

    /// <inheritdoc cref="TryWrite(ReadOnlySpan{byte}, TimeSpan, Utf8JsonWriter, out StoredState)"/>
    public static bool TryWrite(JsonElement root, TimeSpan maxClockSkew, Utf8JsonWriter writer, out StoredState state)
    {
        ArgumentNullException.ThrowIfNull(writer);
        state = default;
        if (!TryRead(root, out var readingId, out var deviceId, out var geometry, out var properties, out var sequence, out var observedAt, out var enqueuedAt)
            || !NewerWins.MayWin(observedAt, enqueuedAt.ToUnixTimeMilliseconds(), maxClockSkew))
        {
            return false;
        }

        var version = NewerWins.VersionKey(sequence, observedAt);
        writer.WriteStartObject();
        writer.WriteString("id", deviceId);
        writer.WriteString("deviceId", deviceId);
        writer.WriteString("type", "Feature");
        writer.WriteString(DeviceStateWriter.VersionProperty, version);
        writer.WritePropertyName("geometry");
        geometry.WriteTo(writer);
        writer.WriteStartObject("properties");
        foreach (var member in properties.EnumerateObject())
        {
            if (StorageOnly.Contains(member.Name))
            {
                continue;
            }

            member.WriteTo(writer);
            if (member.NameEquals("enqueuedAt"))
            {
                // The live path writes the reading's id right after the enqueued time.
                writer.WriteString("readingId", readingId);
            }
        }

        writer.WriteEndObject();
        writer.WriteEndObject();
        writer.Flush();
        state = new StoredState(deviceId, version, sequence, observedAt);
        return true;
    }

    private static bool TryRead(JsonElement root, out string readingId, out string deviceId, out JsonElement geometry, out JsonElement properties,
        out ulong sequence, out DateTimeOffset observedAt, out DateTimeOffset enqueuedAt)
    {
        (readingId, deviceId, geometry, properties, sequence, observedAt, enqueuedAt) = (string.Empty, string.Empty, default, default, 0, default, default);
        if (root.ValueKind != JsonValueKind.Object
            || !root.TryGetProperty("id", out var id) || id.ValueKind != JsonValueKind.String
            || !root.TryGetProperty("deviceId", out var device) || device.ValueKind != JsonValueKind.String
            || !root.TryGetProperty("geometry", out geometry) || geometry.ValueKind != JsonValueKind.Object
            || !root.TryGetProperty("properties", out properties) || properties.ValueKind != JsonValueKind.Object
            || !properties.TryGetProperty("sequence", out var number) || !number.TryGetUInt64(out sequence)
            || !TryGetTime(properties, "observedAt", out observedAt)
            || !TryGetTime(properties, "enqueuedAt", out enqueuedAt))
        {
            return false;
        }

        (readingId, deviceId) = (id.GetString()!, device.GetString()!);
        return true;
    }

    private static bool TryGetTime(JsonElement properties, string name, out DateTimeOffset value)
    {
        value = default;
        return properties.TryGetProperty(name, out var text) && text.ValueKind == JsonValueKind.String
            && DateTimeOffset.TryParse(text.GetString(), CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal | DateTimeStyles.AdjustToUniversal, out value);
    }
}
