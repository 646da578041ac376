using System.Text.Json;

namespace SensorPipeline.DevHost.Explorer;

/// <summary>A <c>deadletters</c> document for the page: its fields as stored, and its bytes decoded — one reading (a
/// letter with a <c>readingIndex</c>) by the core's reading decoder, a whole event by <see cref="EventBodyDecoder"/>.</summary>
public static class DeadLetterJson
{
    private static readonly string[] Fields =
        ["id", "reason", "description", "stage", "detail", "deviceId", "partitionId", "sequenceNumber", "readingIndex", "enqueuedAt",
            "deadLetteredAt", "payloadBytes", "reduced", "redriveCount", "redrivenAt", "redrivenTo"];

    public static void Write(Utf8JsonWriter writer, JsonElement document)
    {
        ArgumentNullException.ThrowIfNull(writer);
        writer.WriteStartObject();
        foreach (var name in Fields)
        {
            if (document.TryGetProperty(name, out var value))
            {
                writer.WritePropertyName(name);
                value.WriteTo(writer);
            }
        }

        if (document.TryGetProperty("payloadBase64", out var payload) && payload.ValueKind == JsonValueKind.String && payload.TryGetBytesFromBase64(out var bytes))
        {
            writer.WriteStartObject("decoded");
            if (document.TryGetProperty("readingIndex", out var index) && index.ValueKind == JsonValueKind.Number)
            {
                writer.WriteString("format", "Reading");
                writer.WriteNumber("size", bytes.Length);
                writer.WritePropertyName("reading");
                ReadingJson.Write(writer, bytes, sourceIndex: null);
            }
            else
            {
                EventBodyDecoder.Write(writer, bytes);
            }

            writer.WriteEndObject();
        }

        writer.WriteEndObject();
    }

    /// <summary>The letters grouped by reason, most letters first.</summary>
    public static void WriteGrouped(Utf8JsonWriter writer, IReadOnlyList<JsonElement> documents)
    {
        ArgumentNullException.ThrowIfNull(writer);
        ArgumentNullException.ThrowIfNull(documents);
        writer.WriteStartArray("groups");
        var groups = documents.GroupBy(d => d.TryGetProperty("reason", out var r) ? r.GetString() ?? "" : "", StringComparer.Ordinal)
            .OrderByDescending(g => g.Count()).ThenBy(g => g.Key, StringComparer.Ordinal);
        foreach (var group in groups)
        {
            writer.WriteStartObject();
            writer.WriteString("reason", group.Key);
            writer.WriteNumber("count", group.Count());
            writer.WriteStartArray("letters");
            foreach (var document in group)
            {
                Write(writer, document);
            }

            writer.WriteEndArray();
            writer.WriteEndObject();
        }

        writer.WriteEndArray();
    }
}
