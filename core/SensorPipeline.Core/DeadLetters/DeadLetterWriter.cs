using System.Text.Json;
using SensorPipeline.Core.Readings;

namespace SensorPipeline.Core.DeadLetters;

/// <summary>Writes a dead letter as the JSON document stored in the <c>deadletters</c> container (partition key <c>/id</c>).</summary>
public static class DeadLetterWriter
{
    public static void Write(Utf8JsonWriter writer, DeadLetter deadLetter, DateTimeOffset now)
    {
        ArgumentNullException.ThrowIfNull(writer);
        ArgumentNullException.ThrowIfNull(deadLetter);
        writer.WriteStartObject();
        writer.WriteString("id", deadLetter.Id);
        writer.WriteString("reason", DeadLetterReasons.Code(deadLetter.Reason));
        writer.WriteString("description", DeadLetterReasons.Describe(deadLetter.Reason));
        writer.WriteString("stage", deadLetter.Stage);
        writer.WriteString("partitionId", deadLetter.Position.PartitionId);
        writer.WriteNumber("sequenceNumber", deadLetter.Position.SequenceNumber);
        writer.WriteString("enqueuedAt", deadLetter.Position.EnqueuedTime.UtcDateTime);
        if (deadLetter.ReadingIndex is { } index)
        {
            writer.WriteNumber("readingIndex", index);
        }

        if (deadLetter.DeviceId is { } device)
        {
            writer.WriteString("deviceId", device);
        }

        writer.WriteBase64String("payloadBase64", deadLetter.Payload.Span);
        if (deadLetter.Detail is { } detail)
        {
            writer.WriteString("detail", detail);
        }

        writer.WriteString("deadLetteredAt", now.UtcDateTime);
        writer.WriteEndObject();
    }

    /// <summary>The document as a byte array (dead letters are rare: no pooling needed).</summary>
    public static byte[] ToUtf8(DeadLetter deadLetter, DateTimeOffset now)
    {
        var buffer = new System.Buffers.ArrayBufferWriter<byte>(512);
        using (var writer = new Utf8JsonWriter(buffer))
        {
            Write(writer, deadLetter, now);
        }

        return buffer.WrittenSpan.ToArray();
    }
}
