using System.Text.Json;
using System.Text.Unicode;

namespace SensorPipeline.EventHubs.Http;

/// <summary>Parses a REST batch (<c>application/vnd.microsoft.servicebus.json</c>):
/// <c>[{"Body":"…","UserProperties":{…},"BrokerProperties":{"PartitionKey":"…"}}]</c> with <see cref="Utf8JsonReader"/>.
/// <c>Body</c> is text, stored as its UTF-8 bytes; an unescaped body is a slice of the request buffer (no copy),
/// an escaped one is unescaped into the caller's arena. Unknown fields are skipped. Everything a client can get wrong
/// (invalid JSON or UTF-8, a number no double holds, a wrong type) is a <see cref="BatchFormatException"/> (HTTP 400),
/// never an unhandled error.</summary>
internal static class BatchParser
{
    /// <summary>Returns the events, or throws <see cref="BatchFormatException"/> saying what is wrong.</summary>
    public static List<EventToAppend> Parse(ReadOnlyMemory<byte> json, byte[] arena)
    {
        var events = new List<EventToAppend>();
        var reader = new Utf8JsonReader(json.Span, new JsonReaderOptions { CommentHandling = JsonCommentHandling.Disallow });
        var arenaUsed = 0;
        try
        {
            Expect(ref reader, JsonTokenType.StartArray, "a batch must be a JSON array of events");
            while (Read(ref reader) != JsonTokenType.EndArray)
            {
                if (reader.TokenType != JsonTokenType.StartObject)
                {
                    throw new BatchFormatException($"event {events.Count} must be a JSON object");
                }

                events.Add(ParseEvent(ref reader, json, arena, ref arenaUsed, events.Count));
            }

            if (reader.Read())
            {
                throw new BatchFormatException("unexpected content after the batch array");
            }
        }
        catch (JsonException e)
        {
            throw new BatchFormatException($"not valid JSON at line {e.LineNumber + 1}, byte {e.BytePositionInLine + 1}", e);
        }
        catch (InvalidOperationException e)
        {
            // Utf8JsonReader checks a string's UTF-8 and escaped surrogates (a lone \ud800) only when the string is read
            // or compared, and throws this instead of a JsonException (found by fuzzing).
            throw new BatchFormatException("a string is not valid UTF-8 or UTF-16: " + e.Message, e);
        }

        if (events.Count == 0)
        {
            throw new BatchFormatException("the batch is empty");
        }

        return events;
    }

    private static EventToAppend ParseEvent(ref Utf8JsonReader reader, ReadOnlyMemory<byte> json, byte[] arena, ref int arenaUsed, int index)
    {
        ReadOnlyMemory<byte>? body = null;
        Dictionary<string, object?>? properties = null;
        string? partitionKey = null;
        while (Read(ref reader) == JsonTokenType.PropertyName)
        {
            if (Is(ref reader, "Body"u8, "body"u8))
            {
                if (Read(ref reader) != JsonTokenType.String)
                {
                    throw new BatchFormatException($"event {index}: Body must be a JSON string");
                }

                if (reader.ValueIsEscaped || reader.HasValueSequence)
                {
                    var length = Unescape(ref reader, arena.AsSpan(arenaUsed), index);
                    body = arena.AsMemory(arenaUsed, length);
                    arenaUsed += length;
                }
                else
                {
                    // Stored as is (no copy), so checked here: JSON text is UTF-8, and a consumer decoding the body as
                    // text must not meet bytes that are not.
                    if (!Utf8.IsValid(reader.ValueSpan))
                    {
                        throw new BatchFormatException($"event {index}: Body is not valid UTF-8");
                    }

                    body = json.Slice((int)reader.TokenStartIndex + 1, reader.ValueSpan.Length);
                }
            }
            else if (Is(ref reader, "UserProperties"u8, "userProperties"u8))
            {
                properties = ParseProperties(ref reader, index);
            }
            else if (Is(ref reader, "BrokerProperties"u8, "brokerProperties"u8))
            {
                partitionKey = ParsePartitionKey(ref reader, index);
            }
            else
            {
                Read(ref reader);
                reader.Skip();
            }
        }

        if (body is null)
        {
            throw new BatchFormatException($"event {index} has no Body");
        }

        return new EventToAppend(body.Value, partitionKey, properties);
    }

    private static Dictionary<string, object?>? ParseProperties(ref Utf8JsonReader reader, int index)
    {
        var token = Read(ref reader);
        if (token == JsonTokenType.Null)
        {
            return null;
        }

        if (token != JsonTokenType.StartObject)
        {
            throw new BatchFormatException($"event {index}: UserProperties must be a JSON object");
        }

        var properties = new Dictionary<string, object?>(StringComparer.Ordinal);
        while (Read(ref reader) == JsonTokenType.PropertyName)
        {
            var name = Text(ref reader, index)!;
            properties[name] = Read(ref reader) switch
            {
                JsonTokenType.String => Text(ref reader, index),
                JsonTokenType.Number => reader.TryGetInt32(out var i) ? i : reader.TryGetInt64(out var l) ? l : FiniteDouble(ref reader, index, name),
                JsonTokenType.True => true,
                JsonTokenType.False => false,
                JsonTokenType.Null => null,
                _ => throw new BatchFormatException($"event {index}: UserProperties.{name} must be a string, number, true, false or null"),
            };
        }

        return properties;
    }

    // Utf8JsonReader does not check a string's bytes or escapes while reading; transcoding or unescaping does, and
    // says so with an InvalidOperationException (invalid UTF-8, a lone surrogate escape): the client's mistake.
    private static string? Text(ref Utf8JsonReader reader, int index)
    {
        try
        {
            return reader.GetString();
        }
        catch (InvalidOperationException e)
        {
            throw new BatchFormatException($"event {index}: {e.Message}", e);
        }
    }

    private static int Unescape(ref Utf8JsonReader reader, Span<byte> destination, int index)
    {
        try
        {
            return reader.CopyString(destination);
        }
        catch (InvalidOperationException e)
        {
            throw new BatchFormatException($"event {index}: Body: {e.Message}", e);
        }
    }

    private static double FiniteDouble(ref Utf8JsonReader reader, int index, string name) =>
        reader.TryGetDouble(out var d) && double.IsFinite(d)
            ? d
            : throw new BatchFormatException($"event {index}: UserProperties.{name} is a number out of the range of a double");

    private static string? ParsePartitionKey(ref Utf8JsonReader reader, int index)
    {
        var token = Read(ref reader);
        if (token == JsonTokenType.Null)
        {
            return null;
        }

        if (token != JsonTokenType.StartObject)
        {
            throw new BatchFormatException($"event {index}: BrokerProperties must be a JSON object");
        }

        string? key = null;
        while (Read(ref reader) == JsonTokenType.PropertyName)
        {
            if (Is(ref reader, "PartitionKey"u8, "partitionKey"u8))
            {
                key = Read(ref reader) switch
                {
                    JsonTokenType.String => Text(ref reader, index),
                    JsonTokenType.Null => null,
                    _ => throw new BatchFormatException($"event {index}: BrokerProperties.PartitionKey must be a string"),
                };
            }
            else
            {
                Read(ref reader);
                reader.Skip();
            }
        }

        return key;
    }

    private static bool Is(ref Utf8JsonReader reader, ReadOnlySpan<byte> name, ReadOnlySpan<byte> camel) =>
        reader.ValueTextEquals(name) || reader.ValueTextEquals(camel);

    private static JsonTokenType Read(ref Utf8JsonReader reader) =>
        reader.Read() ? reader.TokenType : throw new BatchFormatException("the JSON ends early");

    private static void Expect(ref Utf8JsonReader reader, JsonTokenType type, string message)
    {
        if (Read(ref reader) != type)
        {
            throw new BatchFormatException(message);
        }
    }
}

/// <summary>A malformed batch body (HTTP 400).</summary>
internal sealed class BatchFormatException : Exception
{
    public BatchFormatException() { }
    public BatchFormatException(string message) : base(message) { }
    public BatchFormatException(string message, Exception innerException) : base(message, innerException) { }
}
