using System.Text.Json;

namespace SensorPipeline.Functions.Invocation;

/// <summary>The metadata half of the parser: sequence numbers, enqueued times, partition id and retry count.</summary>
internal static partial class InvocationRequestReader
{
    internal static long[] ReadSequenceNumbers(PooledText text)
    {
        if (!text.HasValue)
        {
            throw new InvalidInvocationException("Metadata.SequenceNumberArray is missing.");
        }

        var values = new List<long>();
        var reader = new Utf8JsonReader(text.Span);
        Expect(ref reader, JsonTokenType.StartArray, "Metadata.SequenceNumberArray");
        while (reader.Read() && reader.TokenType != JsonTokenType.EndArray)
        {
            values.Add(reader.TokenType == JsonTokenType.Number && reader.TryGetInt64(out var value)
                ? value
                : throw new InvalidInvocationException($"Metadata.SequenceNumberArray[{values.Count}] is not a whole number."));
        }

        return [.. values];
    }

    internal static long[] ReadEnqueuedTimes(PooledText text)
    {
        if (!text.HasValue)
        {
            throw new InvalidInvocationException("Metadata.EnqueuedTimeUtcArray is missing.");
        }

        var values = new List<long>();
        var reader = new Utf8JsonReader(text.Span);
        Expect(ref reader, JsonTokenType.StartArray, "Metadata.EnqueuedTimeUtcArray");
        while (reader.Read() && reader.TokenType != JsonTokenType.EndArray)
        {
            if (reader.TokenType != JsonTokenType.String || !reader.TryGetDateTime(out var time))
            {
                throw new InvalidInvocationException($"Metadata.EnqueuedTimeUtcArray[{values.Count}] is not an ISO 8601 date and time.");
            }

            // Newtonsoft writes the extension's DateTime without an offset: it is UTC. With an offset, convert.
            var utc = time.Kind switch
            {
                DateTimeKind.Unspecified => DateTime.SpecifyKind(time, DateTimeKind.Utc),
                DateTimeKind.Local => time.ToUniversalTime(),
                _ => time,
            };
            values.Add(new DateTimeOffset(utc).ToUnixTimeMilliseconds());
        }

        return [.. values];
    }

    internal static string? ReadPartitionId(ref Utf8JsonReader reader, ReadOnlySpan<byte> json)
    {
        if (reader.TokenType == JsonTokenType.String)
        {
            // Tolerate a JSON string holding the object's text, like the array-valued metadata.
            using var inner = PooledText.From(ref reader, json, "Metadata.PartitionContext");
            var innerReader = new Utf8JsonReader(inner.Span);
            innerReader.Read();
            return innerReader.TokenType == JsonTokenType.StartObject ? FindPartitionId(ref innerReader) : null;
        }

        if (reader.TokenType != JsonTokenType.StartObject)
        {
            reader.Skip();
            return null;
        }

        return FindPartitionId(ref reader);
    }

    private static string? FindPartitionId(ref Utf8JsonReader reader)
    {
        string? partitionId = null;
        while (NextProperty(ref reader))
        {
            var isPartition = reader.ValueTextEquals("PartitionId"u8);
            reader.Read();
            if (isPartition && reader.TokenType == JsonTokenType.String)
            {
                partitionId = reader.GetString();
            }
            else
            {
                reader.Skip();
            }
        }

        return partitionId;
    }

    internal static int ReadRetryCount(ref Utf8JsonReader reader)
    {
        if (reader.TokenType != JsonTokenType.StartObject)
        {
            reader.Skip();
            return 0;
        }

        var count = 0;
        while (NextProperty(ref reader))
        {
            var isCount = reader.ValueTextEquals("RetryCount"u8);
            reader.Read();
            if (isCount && reader.TokenType == JsonTokenType.Number && reader.TryGetInt32(out var value))
            {
                count = value;
            }
            else
            {
                reader.Skip();
            }
        }

        return count;
    }

    /// <summary>Moves to the next property name of the current object; false at its end.</summary>
    private static bool NextProperty(ref Utf8JsonReader reader) =>
        reader.Read() && reader.TokenType == JsonTokenType.PropertyName;

    private static void Expect(ref Utf8JsonReader reader, JsonTokenType type, string what)
    {
        if (reader.TokenType == JsonTokenType.None)
        {
            reader.Read();
        }

        if (reader.TokenType != type)
        {
            throw new InvalidInvocationException($"{what} is {reader.TokenType}, expected {type}.");
        }
    }
}
