using System.Buffers;
using System.Text;

namespace SensorPipeline.CosmosEmulator.Documents;

/// <summary>Partition key values in one canonical text, the JSON array the SDKs send in
/// <c>x-ms-documentdb-partitionkey</c> (<c>["dev-1"]</c>; <c>[{}]</c> for a missing value, <c>[null]</c> for null),
/// re-serialized so the header's and the document's forms compare equal (5 and 5.0 are one key).</summary>
internal static class PartitionKeys
{
    /// <summary>The key of an absent value (the SDKs' <c>PartitionKey.None</c>).</summary>
    public const string None = "[{}]";

    /// <summary>Canonicalizes the header's JSON array; null when it is not one.</summary>
    public static string? FromHeader(string header)
    {
        try
        {
            using var document = JsonDocument.Parse(header);
            if (document.RootElement.ValueKind != JsonValueKind.Array)
            {
                return null;
            }

            var buffer = new ArrayBufferWriter<byte>(64);
            using (var writer = new Utf8JsonWriter(buffer))
            {
                writer.WriteStartArray();
                foreach (var value in document.RootElement.EnumerateArray())
                {
                    WriteValue(writer, value);
                }

                writer.WriteEndArray();
            }

            return Encoding.UTF8.GetString(buffer.WrittenSpan);
        }
        catch (JsonException)
        {
            return null;
        }
    }

    /// <summary>The key of a document: the values at the container's key paths.</summary>
    public static string FromDocument(JsonElement root, IReadOnlyList<string[]> paths)
    {
        var buffer = new ArrayBufferWriter<byte>(64);
        using (var writer = new Utf8JsonWriter(buffer))
        {
            writer.WriteStartArray();
            foreach (var path in paths)
            {
                var value = root;
                var found = true;
                foreach (var segment in path)
                {
                    if (value.ValueKind != JsonValueKind.Object || !value.TryGetProperty(segment, out value))
                    {
                        found = false;
                        break;
                    }
                }

                if (found)
                {
                    WriteValue(writer, value);
                }
                else
                {
                    writer.WriteStartObject();
                    writer.WriteEndObject();
                }
            }

            writer.WriteEndArray();
        }

        return Encoding.UTF8.GetString(buffer.WrittenSpan);
    }

    private static void WriteValue(Utf8JsonWriter writer, JsonElement value)
    {
        switch (value.ValueKind)
        {
            case JsonValueKind.Number:
                writer.WriteNumberValue(value.GetDouble());
                break;
            case JsonValueKind.Object when !value.EnumerateObject().Any():
                writer.WriteStartObject();
                writer.WriteEndObject();
                break;
            default:
                value.WriteTo(writer);
                break;
        }
    }
}
