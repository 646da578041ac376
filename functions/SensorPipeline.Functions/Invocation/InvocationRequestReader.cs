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
internal static partial class InvocationRequestReader
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
