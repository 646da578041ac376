using System.Buffers;
using System.Buffers.Binary;
using System.Text;
using SensorPipeline.EventHubs.Storage;

namespace SensorPipeline.DevHost.Instances;

/// <summary>The internal read API's binary body, little-endian: the partition's bounds after the read (i64 beginning,
/// i64 last enqueued), i32 count, then per event i64 sequence number, i64 offset, i64 enqueued time (UTC ticks), i32
/// partition-key length (-1: none) and UTF-8, i32 body length and body, i32 properties length and the properties in
/// the log's own encoding. Binary because an instance reads every event through it: JSON would double the bytes
/// (base64 bodies) and cost a parse per event.</summary>
internal static class EventFrames
{
    public const string ContentType = "application/vnd.devhost.events";

    public static void Write(IBufferWriter<byte> output, long beginning, long lastEnqueued, IReadOnlyList<EventHubs.StoredEvent> events)
    {
        var header = output.GetSpan(20);
        BinaryPrimitives.WriteInt64LittleEndian(header, beginning);
        BinaryPrimitives.WriteInt64LittleEndian(header[8..], lastEnqueued);
        BinaryPrimitives.WriteInt32LittleEndian(header[16..], events.Count);
        output.Advance(20);
        foreach (var e in events)
        {
            var keyLength = e.PartitionKey is null ? 0 : Encoding.UTF8.GetByteCount(e.PartitionKey);
            var propertiesLength = e.Properties.Count == 0 ? 0 : PropertyCodec.Measure(e.Properties);
            var size = 24 + 4 + keyLength + 4 + e.Body.Length + 4 + propertiesLength;
            var span = output.GetSpan(size);
            BinaryPrimitives.WriteInt64LittleEndian(span, e.SequenceNumber);
            BinaryPrimitives.WriteInt64LittleEndian(span[8..], e.Offset);
            BinaryPrimitives.WriteInt64LittleEndian(span[16..], e.EnqueuedTime.UtcTicks);
            BinaryPrimitives.WriteInt32LittleEndian(span[24..], e.PartitionKey is null ? -1 : keyLength);
            var at = 28;
            if (e.PartitionKey is not null)
            {
                at += Encoding.UTF8.GetBytes(e.PartitionKey, span[at..]);
            }

            BinaryPrimitives.WriteInt32LittleEndian(span[at..], e.Body.Length);
            e.Body.Span.CopyTo(span[(at + 4)..]);
            at += 4 + e.Body.Length;
            BinaryPrimitives.WriteInt32LittleEndian(span[at..], propertiesLength);
            at += 4;
            if (propertiesLength > 0)
            {
                at += PropertyCodec.Write(span[at..], e.Properties);
            }

            output.Advance(at);
        }
    }

    /// <summary>Parses a body; event bodies are slices of <paramref name="body"/> (one array per read, no copy).</summary>
    public static (PartitionBounds Bounds, ReceivedEvent[] Events) Read(ReadOnlyMemory<byte> body)
    {
        var span = body.Span;
        if (span.Length < 20)
        {
            throw new InvalidDataException($"internal read answer of {span.Length} bytes is shorter than its 20-byte header");
        }

        var bounds = new PartitionBounds(BinaryPrimitives.ReadInt64LittleEndian(span), BinaryPrimitives.ReadInt64LittleEndian(span[8..]));
        var events = new ReceivedEvent[BinaryPrimitives.ReadInt32LittleEndian(span[16..])];
        var at = 20;
        for (var i = 0; i < events.Length; i++)
        {
            var sequenceNumber = BinaryPrimitives.ReadInt64LittleEndian(span[at..]);
            var offset = BinaryPrimitives.ReadInt64LittleEndian(span[(at + 8)..]);
            var enqueued = new DateTimeOffset(BinaryPrimitives.ReadInt64LittleEndian(span[(at + 16)..]), TimeSpan.Zero);
            var keyLength = BinaryPrimitives.ReadInt32LittleEndian(span[(at + 24)..]);
            at += 28;
            string? key = null;
            if (keyLength >= 0)
            {
                key = Encoding.UTF8.GetString(span.Slice(at, keyLength));
                at += keyLength;
            }

            var bodyLength = BinaryPrimitives.ReadInt32LittleEndian(span[at..]);
            var eventBody = body.Slice(at + 4, bodyLength);
            at += 4 + bodyLength;
            var propertiesLength = BinaryPrimitives.ReadInt32LittleEndian(span[at..]);
            at += 4;
            var properties = propertiesLength == 0 ? Empty : PropertyCodec.Read(span.Slice(at, propertiesLength));
            at += propertiesLength;
            events[i] = new ReceivedEvent(sequenceNumber, offset, enqueued, key, eventBody, properties);
        }

        return (bounds, events);
    }

    /// <summary>An append body: i32 count, then per event i32 length and the body.</summary>
    public static byte[] WriteBodies(IReadOnlyList<ReadOnlyMemory<byte>> bodies)
    {
        var buffer = new byte[4 + bodies.Sum(b => 4 + b.Length)];
        BinaryPrimitives.WriteInt32LittleEndian(buffer, bodies.Count);
        var at = 4;
        foreach (var b in bodies)
        {
            BinaryPrimitives.WriteInt32LittleEndian(buffer.AsSpan(at), b.Length);
            b.Span.CopyTo(buffer.AsSpan(at + 4));
            at += 4 + b.Length;
        }

        return buffer;
    }

    public static List<ReadOnlyMemory<byte>> ReadBodies(ReadOnlyMemory<byte> body)
    {
        var span = body.Span;
        var count = span.Length >= 4 ? BinaryPrimitives.ReadInt32LittleEndian(span) : throw new InvalidDataException("append body has no count");
        var bodies = new List<ReadOnlyMemory<byte>>(count);
        var at = 4;
        for (var i = 0; i < count; i++)
        {
            var length = BinaryPrimitives.ReadInt32LittleEndian(span[at..]);
            if (length < 0 || at + 4 + length > span.Length)
            {
                throw new InvalidDataException($"append body: event {i} of {count} runs past the end");
            }

            bodies.Add(body.Slice(at + 4, length));
            at += 4 + length;
        }

        return bodies;
    }

    private static readonly Dictionary<string, object?> Empty = [];
}
