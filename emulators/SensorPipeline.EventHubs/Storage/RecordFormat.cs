using System.Buffers.Binary;
using System.Numerics;
using System.Runtime.InteropServices;
using SensorPipeline.Emulators.Common;

namespace SensorPipeline.EventHubs.Storage;

/// <summary>The on-disk layout of segments and records: the emulators' shared durable-log framing
/// (<see cref="DurableLogFormat"/>: header with the durable mark, records of length, CRC-32C and payload) around what
/// a segment and an event hold (all integers little-endian).
/// <code>
/// segment header (40 bytes): "SPEH" | u32 version 3 | i64 durable mark | i64 its complement
///                             | i64 base sequence | i64 base offset
/// record: u32 payload length | u32 CRC-32C of payload | payload
/// payload: i64 sequence | i64 enqueued UTC ticks | i32 key length (-1 = none) | key UTF-8
///        | i32 properties length | properties (see PropertyCodec)
///        | i32 envelope length | AMQP envelope (opaque here: body kind and message properties, see EventToAppend)
///        | i32 body length | body
/// </code>
/// The CRC and the sequence number together detect a torn or stale tail on recovery; the durable mark — how many bytes
/// of the segment are known durable and acknowledged — tells a torn tail (past it) from corruption (before it).
/// Version 3 keeps the durable mark where the Cosmos DB emulator's log keeps its own; segments of versions 1 and 2 are
/// refused with a message saying what to delete.</summary>
internal static class RecordFormat
{
    public const int SegmentHeaderSize = DurableLogFormat.HeaderSize + 16;
    public const uint Magic = 0x48455053; // "SPEH"
    public const uint Version = 3;
    public const int RecordHeaderSize = DurableLogFormat.RecordHeaderSize;
    private const int BaseSequenceOffset = DurableLogFormat.HeaderSize;
    private const int BaseOffsetOffset = DurableLogFormat.HeaderSize + 8;
    public const int PayloadFixedSize = 8 + 8 + 4 + 4 + 4 + 4;
    public const int RecordOverhead = RecordHeaderSize + PayloadFixedSize;

    /// <summary>The largest event the log stores (body, key, properties, envelope). A 1 MiB AMQP message can take more
    /// stored than on the wire — properties wider than AMQP's one-byte encodings (at most 65,535 of them, 11 bytes
    /// each), a batch's partition key (up to the message's size) stored with each of its events — but not 4 MiB.</summary>
    public const int MaxStoredEventSize = 4 * EventLogOptions.MaxEventSizeBytes;

    /// <summary>The most one batch may take stored, records with their framing: a 1 MiB AMQP batch of 104,857 empty
    /// events takes under 4 MiB; only a long batch key copied into every event comes near this.</summary>
    public const long MaxStoredBatchBytes = 16L * EventLogOptions.MaxEventSizeBytes;

    /// <summary>Largest payload recovery accepts: the largest stored event plus its fixed fields.</summary>
    public const int MaxPayloadSize = MaxStoredEventSize + PayloadFixedSize;

    /// <summary>A new segment's header; its durable mark covers the header alone until records are marked.</summary>
    public static void WriteSegmentHeader(Span<byte> destination, long baseSequence, long baseOffset)
    {
        DurableLogFormat.WriteHeader(destination, Magic, Version, SegmentHeaderSize);
        BinaryPrimitives.WriteInt64LittleEndian(destination[BaseSequenceOffset..], baseSequence);
        BinaryPrimitives.WriteInt64LittleEndian(destination[BaseOffsetOffset..], baseOffset);
    }

    /// <summary>The durable mark of a segment header, or null when it has none (one whose first mark never reached the disk).</summary>
    public static long? DurableMarkOf(ReadOnlySpan<byte> header) => DurableLogFormat.DurableMarkOf(header, SegmentHeaderSize);

    public static bool TryReadSegmentHeader(ReadOnlySpan<byte> source, out long baseSequence, out long baseOffset)
    {
        baseSequence = baseOffset = 0;
        if (source.Length < SegmentHeaderSize || DurableLogFormat.VersionOf(source, Magic) != Version)
        {
            return false;
        }

        baseSequence = BinaryPrimitives.ReadInt64LittleEndian(source[BaseSequenceOffset..]);
        baseOffset = BinaryPrimitives.ReadInt64LittleEndian(source[BaseOffsetOffset..]);
        return true;
    }

    /// <summary>Why a segment of an older <paramref name="version"/> is refused, naming what to delete.</summary>
    public static InvalidDataException OlderVersion(string path, uint version, string eventHubsDirectory) => DurableLogFormat.OtherFormat(
        path, "an Event Hubs emulator segment written by an older devhost", version, Version,
        $"Delete the data directory's eventhubs folder ({eventHubsDirectory}) or start with another --data.");

    /// <summary>Bytes counted against the 1 MiB limit: body, partition key, properties and the AMQP envelope.</summary>
    public static int EventSize(int bodyLength, int keyLength, int propertiesLength, int envelopeLength) => bodyLength + keyLength + propertiesLength + envelopeLength;

    /// <summary>What one event of a batch of several counts against the 1 MiB limit, as the service counts the batch —
    /// one AMQP message whose body holds every event as an encoded message of its own — and as the SDK's
    /// <c>EventDataBatch</c> measures it (azure-sdk-for-net, <c>Azure.Messaging.EventHubs/src/Amqp/AmqpEventBatch.cs</c>,
    /// <c>TryAdd</c>: the event's serialized message plus 5 bytes of Data-section framing when that message is at most
    /// 255 bytes, else 8). The event's message is at least its body's Data section: a 3-byte descriptor and a 2-byte
    /// (vbin8, up to 255 bytes) or 5-byte (vbin32) length before the bytes. So an empty event counts 10 bytes, and a
    /// batch holds at most 104,857 of them. Key and properties count as measured (their sections' few bytes of framing
    /// are not added: the count never exceeds the service's by more than those).</summary>
    public static long BatchedEventSize(int eventSize)
    {
        long message = eventSize + 3 + (eventSize <= 255 ? 2 : 5);
        return message + (message <= 255 ? 5 : 8);
    }

    /// <summary>Writes one record with sequence and time left zero; <see cref="Stamp"/> fills them in at commit.
    /// <paramref name="keyLength"/> and <paramref name="propertiesLength"/> come from measuring the event first.</summary>
    public static int WriteUnstamped(Span<byte> destination, string? key, int keyLength, IReadOnlyDictionary<string, object?>? properties, int propertiesLength, ReadOnlySpan<byte> envelope, ReadOnlySpan<byte> body)
    {
        var payloadLength = PayloadFixedSize + keyLength + propertiesLength + envelope.Length + body.Length;
        BinaryPrimitives.WriteInt32LittleEndian(destination, payloadLength);
        BinaryPrimitives.WriteUInt32LittleEndian(destination[4..], 0);
        var p = destination[RecordHeaderSize..];
        p[..16].Clear();
        BinaryPrimitives.WriteInt32LittleEndian(p[16..], key is null ? -1 : keyLength);
        if (key is not null)
        {
            System.Text.Encoding.UTF8.GetBytes(key, p[20..]);
        }

        var at = 20 + keyLength;
        BinaryPrimitives.WriteInt32LittleEndian(p[at..], propertiesLength);
        PropertyCodec.Write(p[(at + 4)..], properties);
        at += 4 + propertiesLength;
        BinaryPrimitives.WriteInt32LittleEndian(p[at..], envelope.Length);
        envelope.CopyTo(p[(at + 4)..]);
        at += 4 + envelope.Length;
        BinaryPrimitives.WriteInt32LittleEndian(p[at..], body.Length);
        body.CopyTo(p[(at + 4)..]);
        return RecordHeaderSize + payloadLength;
    }

    /// <summary>Sets a record's sequence number and enqueued time and seals it with its CRC; returns the record length.</summary>
    public static int Stamp(Span<byte> record, long sequenceNumber, long enqueuedTicks)
    {
        var payload = record.Slice(RecordHeaderSize, BinaryPrimitives.ReadInt32LittleEndian(record));
        BinaryPrimitives.WriteInt64LittleEndian(payload, sequenceNumber);
        BinaryPrimitives.WriteInt64LittleEndian(payload[8..], enqueuedTicks);
        return DurableLogFormat.Seal(record[..(RecordHeaderSize + payload.Length)]);
    }

    /// <summary>Checks the record at the start of <paramref name="source"/>: complete, CRC intact, expected sequence, and
    /// its fields adding up to its payload (a CRC vouches for bytes, not for a writer that wrote them wrong).
    /// Returns its length, or 0 when it is torn, corrupt or out of sequence (recovery cuts there, or refuses to start
    /// when that is before the durable mark).</summary>
    public static int Validate(ReadOnlySpan<byte> source, long expectedSequence)
    {
        if (source.Length < RecordOverhead)
        {
            return 0;
        }

        var payloadLength = PayloadLength(source);
        if (payloadLength < 0 || source.Length - RecordHeaderSize < payloadLength)
        {
            return 0;
        }

        var payload = source.Slice(RecordHeaderSize, payloadLength);
        if (!DurableLogFormat.CrcMatches(source, payload)
            || BinaryPrimitives.ReadInt64LittleEndian(payload) != expectedSequence
            || !FieldsFit(payload))
        {
            return 0;
        }

        return RecordHeaderSize + payloadLength;
    }

    /// <summary>True when the enqueued time is an instant, key, properties, envelope and body lie inside the payload and
    /// end exactly at its end, and the properties decode: what <see cref="RecordDecoder"/> relies on.</summary>
    private static bool FieldsFit(ReadOnlySpan<byte> payload)
    {
        var ticks = BinaryPrimitives.ReadInt64LittleEndian(payload[8..]);
        if (ticks < 0 || ticks > DateTime.MaxValue.Ticks)
        {
            return false; // the enqueued time must be an instant
        }

        long at = 16;
        var keyLength = BinaryPrimitives.ReadInt32LittleEndian(payload[16..]);
        at += 4 + Math.Max(0, (long)keyLength);
        if (keyLength < -1 || at + 4 > payload.Length)
        {
            return false;
        }

        var propertiesLength = BinaryPrimitives.ReadInt32LittleEndian(payload[(int)at..]);
        at += 4;
        if (propertiesLength < 0 || at + propertiesLength + 4 > payload.Length
            || (propertiesLength > 0 && !PropertyCodec.IsWellFormed(payload.Slice((int)at, propertiesLength))))
        {
            return false;
        }

        at += propertiesLength;
        var envelopeLength = BinaryPrimitives.ReadInt32LittleEndian(payload[(int)at..]);
        at += 4;
        if (envelopeLength < 0 || at + envelopeLength + 4 > payload.Length)
        {
            return false;
        }

        at += envelopeLength;
        return BinaryPrimitives.ReadInt32LittleEndian(payload[(int)at..]) == payload.Length - at - 4;
    }

    /// <summary>The payload length in a record header, or -1 when no event's record is that long (a torn or corrupt tail).</summary>
    public static int PayloadLength(ReadOnlySpan<byte> recordHeader) => DurableLogFormat.PayloadLength(recordHeader, PayloadFixedSize, MaxPayloadSize);

    public static int RecordLength(ReadOnlySpan<byte> record) => RecordHeaderSize + BinaryPrimitives.ReadInt32LittleEndian(record);

    public static long SequenceOf(ReadOnlySpan<byte> record) => BinaryPrimitives.ReadInt64LittleEndian(record[RecordHeaderSize..]);

    public static long TicksOf(ReadOnlySpan<byte> record) => BinaryPrimitives.ReadInt64LittleEndian(record[(RecordHeaderSize + 8)..]);
}
