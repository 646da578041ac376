using System.Buffers;

namespace SensorPipeline.CosmosEmulator.Documents;

/// <summary>Turns a request body into a stored document: the client's properties copied as they are, the system
/// properties (<c>_rid</c>, <c>_self</c>, <c>_etag</c>, <c>_attachments</c>, <c>_ts</c>) replaced by the store's.</summary>
internal static class DocumentBuilder
{
    /// <summary>The service's limit on one document: 2 MB.</summary>
    public const int MaxDocumentBytes = 2 * 1024 * 1024;

    private static readonly JsonDocumentOptions Options = new() { MaxDepth = 128 };

    /// <summary>Parses and checks a document body; throws <see cref="StoreException"/> (400) with the service's reason
    /// when it is not a JSON object with a valid string <c>id</c>.</summary>
    public static JsonDocument Parse(ReadOnlyMemory<byte> body)
    {
        if (body.Length > MaxDocumentBytes)
        {
            throw new StoreException(413, "RequestEntityTooLarge", $"The document is {body.Length} bytes; the limit is {MaxDocumentBytes}.");
        }

        // JSON text is UTF-8, and System.Text.Json checks a string's bytes only when it is read: a document holding
        // invalid UTF-8 would be stored and fail every query that reads it (found by fuzzing).
        if (!System.Text.Unicode.Utf8.IsValid(body.Span))
        {
            throw new StoreException(400, "BadRequest", "The request body is not valid UTF-8.");
        }

        JsonDocument document;
        try
        {
            document = JsonDocument.Parse(body, Options);
        }
        catch (JsonException e)
        {
            throw new StoreException(400, "BadRequest", "The request body is not valid JSON: " + e.Message);
        }

        var root = document.RootElement;
        if (root.ValueKind != JsonValueKind.Object)
        {
            document.Dispose();
            throw new StoreException(400, "BadRequest", "The document must be a JSON object.");
        }

        if (!root.TryGetProperty("id", out var id) || id.ValueKind != JsonValueKind.String || id.GetString() is not { Length: > 0 and <= 1023 } text
            || text.AsSpan().IndexOfAny("/\\?#") >= 0)
        {
            document.Dispose();
            throw new StoreException(400, "BadRequest",
                "The input content is invalid because the required property, id, is missing, is not a non-empty string of at most 1023 characters, or contains '/', '\\', '?' or '#'.");
        }

        return document;
    }

    /// <summary>The stored JSON for <paramref name="root"/> with the given system properties; also returns the item's
    /// own <c>ttl</c> when it has a numeric one.</summary>
    public static byte[] Build(JsonElement root, string rid, string selfLink, string etag, long timestamp, out int? timeToLive)
    {
        timeToLive = null;
        var buffer = new ArrayBufferWriter<byte>(1024);
        using (var writer = new Utf8JsonWriter(buffer, new JsonWriterOptions { SkipValidation = true }))
        {
            writer.WriteStartObject();
            foreach (var property in root.EnumerateObject())
            {
                if (IsSystemProperty(property.Name))
                {
                    continue;
                }

                if (property.NameEquals("ttl") && property.Value.ValueKind == JsonValueKind.Number && property.Value.TryGetInt32(out var ttl))
                {
                    timeToLive = ttl;
                }

                property.WriteTo(writer);
            }

            writer.WriteString("_rid", rid);
            writer.WriteString("_self", selfLink);
            writer.WriteString("_etag", etag);
            writer.WriteString("_attachments", "attachments/");
            writer.WriteNumber("_ts", timestamp);
            writer.WriteEndObject();
        }

        return buffer.WrittenSpan.ToArray();
    }

    public static bool IsSystemProperty(string name) => name is "_rid" or "_self" or "_etag" or "_attachments" or "_ts" or "_lsn";

    /// <summary>A new ETag in the service's form: a quoted GUID-like string.</summary>
    public static string NewETag() => "\"" + Guid.CreateVersion7().ToString() + "\"";
}
