using System.Text.Json;
using SensorPipeline.Core.Readings;

namespace SensorPipeline.Core.DeadLetters;

/// <summary>Writes a dead letter as the JSON document stored in the <c>deadletters</c> container (partition key <c>/id</c>).</summary>
public static class DeadLetterWriter
{
    public static void Write(Utf8JsonWriter writer, DeadLetter deadLetter, DateTimeOffset now) => Write(writer, deadLetter, now, null, 0);

    /// <summary>
    /// The same document, reduced for a store that refused it as is (too large, say): the first <see cref="ReducedPayloadBytes"/>
    /// of the payload, its length and SHA-256 (so a copy kept elsewhere can still be matched), and the store's refusal.
    /// </summary>
    /// <param name="deadLetter">The dead letter as refused.</param>
    /// <param name="now">Stamped as deadLetteredAt.</param>
    /// <param name="refusal">What the store said.</param>
    /// <param name="keepBytes">Payload bytes to keep (at most <see cref="ReducedPayloadBytes"/>).</param>
    public static byte[] ToUtf8Reduced(DeadLetter deadLetter, DateTimeOffset now, string refusal, int keepBytes = ReducedPayloadBytes)
    {
        ArgumentNullException.ThrowIfNull(deadLetter);
        var buffer = new System.Buffers.ArrayBufferWriter<byte>(512);
        using (var writer = new Utf8JsonWriter(buffer))
        {
            Write(writer, deadLetter, now, refusal ?? "", Math.Clamp(keepBytes, 0, ReducedPayloadBytes));
        }

        return buffer.WrittenSpan.ToArray();
    }

    /// <summary>Payload bytes a reduced dead letter keeps: far under any document limit, enough to see what it was.</summary>
    public const int ReducedPayloadBytes = 16 * 1024;

    private static void Write(Utf8JsonWriter writer, DeadLetter deadLetter, DateTimeOffset now, string? refusal, int keepBytes)
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

        var payload = deadLetter.Payload.Span;
        if (refusal is null)
        {
            writer.WriteBase64String("payloadBase64", payload);
        }
        else
        {
            writer.WriteBase64String("payloadBase64", payload[..Math.Min(payload.Length, keepBytes)]);
            writer.WriteBoolean("reduced", true);
            writer.WriteNumber("payloadBytes", payload.Length);
            writer.WriteString("payloadSha256", Convert.ToHexStringLower(System.Security.Cryptography.SHA256.HashData(payload)));
            writer.WriteString("refusedAsIs", refusal.Length <= 1000 ? refusal : refusal[..1000]);
        }

        if (deadLetter.Detail is { } detail)
        {
            writer.WriteString("detail", refusal is null || detail.Length <= 4000 ? detail : detail[..4000]);
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
