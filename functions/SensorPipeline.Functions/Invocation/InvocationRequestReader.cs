using System.Buffers;
using System.Buffers.Text;
using System.Text.Json;
using SensorPipeline.Core.Readings;
using SensorPipeline.Core.Splitting;

namespace SensorPipeline.Functions.Invocation;

/// <summary>
/// Parses the Functions host's custom-handler request for an Event Hubs batch with a forward-only
/// <see cref="Utf8JsonReader"/> (no DOM of the body):
/// <c>{"Data":{"&lt;trigger&gt;":"[\"AQID\",…]"},"Metadata":{"PartitionContext":{…,"PartitionId":"0"},
/// "SequenceNumberArray":"[…]","EnqueuedTimeUtcArray":"[…]",…,"RetryContext":{"RetryCount":1,…}}}</c>.
/// Array-valued data arrive as JSON strings holding JSON text (the host's JsonConvert.SerializeObject fallback);
/// real arrays are accepted too. Enqueued times come without an offset and are UTC.
/// </summary>
internal static class InvocationRequestReader
{
    public static async Task<InvocationRequest> ReadAsync(Microsoft.AspNetCore.Http.HttpRequest request, string triggerName, CancellationToken cancellationToken)
    {
        using var body = await RequestBody.ReadAsync(request, cancellationToken);
        return Parse(body.Span, triggerName);
    }

    public static InvocationRequest Parse(ReadOnlySpan<byte> json, string triggerName)
    {
        ArgumentNullException.ThrowIfNull(triggerName);
        PooledText data = default, sequences = default, enqueued = default;
        try
        {
            string? partitionId = null;
            var retryCount = 0;
            var reader = new Utf8JsonReader(json);
            Expect(ref reader, JsonTokenType.StartObject, "the request body");
            while (NextProperty(ref reader))
            {
                if (reader.ValueTextEquals("Data"u8))
                {
                    reader.Read();
                    Expect(ref reader, JsonTokenType.StartObject, "Data");
                    while (NextProperty(ref reader))
                    {
                        var isTrigger = reader.ValueTextEquals(triggerName);
                        reader.Read();
                        if (isTrigger)
                        {
                            data.Dispose();
                            data = PooledText.From(ref reader, json, "Data." + triggerName);
                        }
                        else
                        {
                            reader.Skip();
                        }
                    }
                }
                else if (reader.ValueTextEquals("Metadata"u8))
                {
                    reader.Read();
                    Expect(ref reader, JsonTokenType.StartObject, "Metadata");
                    while (NextProperty(ref reader))
                    {
                        if (reader.ValueTextEquals("PartitionContext"u8))
                        {
                            reader.Read();
                            partitionId = ReadPartitionId(ref reader, json) ?? partitionId;
                        }
                        else if (reader.ValueTextEquals("SequenceNumberArray"u8))
                        {
                            reader.Read();
                            sequences.Dispose();
                            sequences = PooledText.From(ref reader, json, "Metadata.SequenceNumberArray");
                        }
                        else if (reader.ValueTextEquals("EnqueuedTimeUtcArray"u8))
                        {
                            reader.Read();
                            enqueued.Dispose();
                            enqueued = PooledText.From(ref reader, json, "Metadata.EnqueuedTimeUtcArray");
                        }
                        else if (reader.ValueTextEquals("RetryContext"u8))
                        {
                            reader.Read();
                            retryCount = ReadRetryCount(ref reader);
                        }
                        else
                        {
                            reader.Read();
                            reader.Skip();
                        }
                    }
                }
                else
                {
                    reader.Read();
                    reader.Skip();
                }
            }

            if (!data.HasValue)
            {
                throw new InvalidInvocationException($"Data.{triggerName} is missing: the trigger binding in function.json must be named \"{triggerName}\".");
            }

            var partition = partitionId ?? throw new InvalidInvocationException("Metadata.PartitionContext.PartitionId is missing.");
            var sequenceNumbers = ReadSequenceNumbers(sequences);
            var enqueuedTimes = ReadEnqueuedTimes(enqueued);
            return ReadEvents(data, partition, sequenceNumbers, enqueuedTimes, retryCount, triggerName);
        }
        catch (JsonException e)
        {
            throw new InvalidInvocationException($"The request is not well-formed JSON of the custom-handler shape: {e.Message}", e);
        }
        finally
        {
            data.Dispose();
            sequences.Dispose();
            enqueued.Dispose();
        }
    }

    private static InvocationRequest ReadEvents(PooledText data, string partitionId, long[] sequenceNumbers, long[] enqueuedTimes, int retryCount, string triggerName)
    {
        var text = data.Span;
        var bodies = ArrayPool<byte>.Shared.Rent(Math.Max(1, Base64.GetMaxDecodedFromUtf8Length(text.Length)));
        try
        {
            var events = new List<InputEvent>(sequenceNumbers.Length);
            var written = 0;
            var reader = new Utf8JsonReader(text);
            Expect(ref reader, JsonTokenType.StartArray, "Data." + triggerName);
            while (reader.Read() && reader.TokenType != JsonTokenType.EndArray)
            {
                if (reader.TokenType != JsonTokenType.String)
                {
                    throw new InvalidInvocationException($"Data.{triggerName}[{events.Count}] is {reader.TokenType}, expected a base64 string: set \"dataType\": \"binary\" on the trigger.");
                }

                var index = events.Count;
                if (index >= sequenceNumbers.Length || index >= enqueuedTimes.Length)
                {
                    throw new InvalidInvocationException($"Data.{triggerName} has more events than Metadata.SequenceNumberArray ({sequenceNumbers.Length}) or EnqueuedTimeUtcArray ({enqueuedTimes.Length}).");
                }

                var length = DecodeBase64(ref reader, bodies.AsSpan(written), triggerName, index);
                var position = new SourcePosition(partitionId, sequenceNumbers[index], enqueuedTimes[index]);
                events.Add(new InputEvent(new ReadOnlyMemory<byte>(bodies, written, length), position));
                written += length;
            }

            if (events.Count != sequenceNumbers.Length || events.Count != enqueuedTimes.Length)
            {
                throw new InvalidInvocationException($"Data.{triggerName} has {events.Count} events but Metadata.SequenceNumberArray has {sequenceNumbers.Length} and EnqueuedTimeUtcArray {enqueuedTimes.Length}.");
            }

            return new InvocationRequest(bodies, events, partitionId, retryCount);
        }
        catch
        {
            ArrayPool<byte>.Shared.Return(bodies);
            throw;
        }
    }

    private static int DecodeBase64(ref Utf8JsonReader reader, Span<byte> destination, string triggerName, int index)
    {
        OperationStatus status;
        int written;
        if (!reader.ValueIsEscaped)
        {
            status = Base64.DecodeFromUtf8(reader.ValueSpan, destination, out _, out written);
        }
        else
        {
            // Rare: an encoder that escapes '+' or '/' ("\u002B"). Unescape first, then decode.
            var scratch = ArrayPool<byte>.Shared.Rent(reader.ValueSpan.Length);
            try
            {
                var unescaped = reader.CopyString(scratch);
                status = Base64.DecodeFromUtf8(scratch.AsSpan(0, unescaped), destination, out _, out written);
            }
            finally
            {
                ArrayPool<byte>.Shared.Return(scratch);
            }
        }

        return status == OperationStatus.Done
            ? written
            : throw new InvalidInvocationException($"Data.{triggerName}[{index}] is not valid base64 ({status}).");
    }

    private static long[] ReadSequenceNumbers(PooledText text)
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

    private static long[] ReadEnqueuedTimes(PooledText text)
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

    private static string? ReadPartitionId(ref Utf8JsonReader reader, ReadOnlySpan<byte> json)
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

    private static int ReadRetryCount(ref Utf8JsonReader reader)
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

    /// <summary>A value's JSON text in a pooled buffer: a JSON string's unescaped content, or an array/object's raw text.</summary>
    private struct PooledText : IDisposable
    {
        private byte[]? _buffer;
        private int _length;

        public readonly bool HasValue => _buffer is not null;

        public readonly ReadOnlySpan<byte> Span => _buffer.AsSpan(0, _length);

        public static PooledText From(ref Utf8JsonReader reader, ReadOnlySpan<byte> json, string what)
        {
            switch (reader.TokenType)
            {
                case JsonTokenType.String:
                {
                    var buffer = ArrayPool<byte>.Shared.Rent(Math.Max(1, reader.ValueSpan.Length));
                    return new PooledText { _buffer = buffer, _length = reader.CopyString(buffer) };
                }

                case JsonTokenType.StartArray or JsonTokenType.StartObject:
                {
                    var start = (int)reader.TokenStartIndex;
                    reader.Skip();
                    var raw = json[start..(int)reader.BytesConsumed];
                    var buffer = ArrayPool<byte>.Shared.Rent(Math.Max(1, raw.Length));
                    raw.CopyTo(buffer);
                    return new PooledText { _buffer = buffer, _length = raw.Length };
                }

                default:
                    throw new InvalidInvocationException($"{what} is {reader.TokenType}, expected a JSON string holding JSON text or an array.");
            }
        }

        public void Dispose()
        {
            if (_buffer is { } buffer)
            {
                _buffer = null;
                ArrayPool<byte>.Shared.Return(buffer);
            }
        }
    }
}
