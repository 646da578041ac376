using System.Text.Json;
using System.Text.Unicode;
using SensorPipeline.Core.Readings;
using SensorPipeline.Core.Splitting;

namespace SensorPipeline.DevHost.Explorer;

/// <summary>Writes an event body as JSON, decoded with the core's own readers: a <c>ForwardEnvelope</c> as its kind,
/// sources and readings; a <c>ReadingBatch</c> as its readings; anything else as its size, text (when UTF-8) and hex.
/// The two framings cannot be mistaken for each other: an envelope's field 1 is a varint, a batch's a message.</summary>
public static class EventBodyDecoder
{
    /// <summary>Bytes of an undecoded body shown as hex; the size is always given.</summary>
    public const int MaxHexBytes = 4096;

    public static void Write(Utf8JsonWriter writer, ReadOnlySpan<byte> body)
    {
        ArgumentNullException.ThrowIfNull(writer);
        writer.WriteNumber("size", body.Length);
        var sources = new List<SourcePosition>();
        if (EnvelopeReader.TryReadHeader(body, sources, out var kind, out var forwardedMs, out _) == DeadLetterReason.None)
        {
            WriteEnvelope(writer, body, sources, kind.ToString(), forwardedMs);
        }
        else if (ReadingBatchReader.TryCheckFraming(body, out _) == DeadLetterReason.None)
        {
            writer.WriteString("format", "ReadingBatch");
            writer.WriteStartArray("readings");
            foreach (var reading in ReadingBatchReader.EnumerateReadings(body))
            {
                ReadingJson.Write(writer, reading, sourceIndex: null);
            }

            writer.WriteEndArray();
        }
        else
        {
            WriteBytes(writer, body);
        }
    }

    /// <summary>A body no decoder accepts: its text when it is UTF-8, and its first <see cref="MaxHexBytes"/> as hex.</summary>
    public static void WriteBytes(Utf8JsonWriter writer, ReadOnlySpan<byte> body)
    {
        ArgumentNullException.ThrowIfNull(writer);
        writer.WriteString("format", "bytes");
        if (!body.IsEmpty && Utf8.IsValid(body))
        {
            writer.WriteString("text", body[..Math.Min(body.Length, MaxHexBytes)]);
        }

        writer.WriteString("hex", Convert.ToHexString(body[..Math.Min(body.Length, MaxHexBytes)]));
        writer.WriteBoolean("truncated", body.Length > MaxHexBytes);
    }

    private static void WriteEnvelope(Utf8JsonWriter writer, ReadOnlySpan<byte> body, List<SourcePosition> sources, string kind, long forwardedMs)
    {
        writer.WriteString("format", "ForwardEnvelope");
        writer.WriteString("kind", kind);
        writer.WriteNumber("forwardedTimeUnixMs", forwardedMs);
        writer.WriteStartArray("sources");
        foreach (var source in sources)
        {
            writer.WriteStartObject();
            writer.WriteString("partitionId", source.PartitionId);
            writer.WriteNumber("sequenceNumber", source.SequenceNumber);
            writer.WriteNumber("enqueuedTimeUnixMs", source.EnqueuedTimeUnixMs);
            writer.WriteEndObject();
        }

        writer.WriteEndArray();
        writer.WriteStartArray("readings");
        foreach (var entry in EnvelopeReader.EnumerateReadings(body))
        {
            if (EnvelopeReader.TryReadForwardedReading(entry, sources.Count, out var reading, out var sourceIndex))
            {
                ReadingJson.Write(writer, reading, sourceIndex);
            }
            else
            {
                writer.WriteStartObject();
                WriteBytes(writer, entry);
                writer.WriteEndObject();
            }
        }

        writer.WriteEndArray();
    }
}
