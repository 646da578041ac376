using System.Buffers.Binary;
using System.Text;
using SensorPipeline.Emulators.Common;

namespace SensorPipeline.CosmosEmulator.Log;

/// <summary>Encodes mutations into a log record and back.
/// <code>
/// payload: u16 count | mutation*
/// mutation: u8 kind | str database | str container | str partition key | str id | str etag | i64 _ts
///         | i32 ttl (int.MinValue = none) | i32 body length | body
/// str: u16 UTF-8 length | UTF-8
/// </code></summary>
internal static class MutationCodec
{
    private const int NoTimeToLive = int.MinValue;

    /// <summary>A sealed record (header and payload) holding <paramref name="mutations"/>.</summary>
    public static byte[] Encode(ReadOnlySpan<Mutation> mutations)
    {
        var length = DurableLogFormat.RecordHeaderSize + 2;
        foreach (var m in mutations)
        {
            length += 1 + Str(m.Database) + Str(m.Container) + Str(m.PartitionKey) + Str(m.Id) + Str(m.ETag) + 8 + 4 + 4 + m.Body.Length;
        }

        var record = new byte[length];
        var span = record.AsSpan(DurableLogFormat.RecordHeaderSize);
        BinaryPrimitives.WriteUInt16LittleEndian(span, checked((ushort)mutations.Length));
        var at = 2;
        foreach (var m in mutations)
        {
            span[at++] = (byte)m.Kind;
            at += WriteStr(span[at..], m.Database);
            at += WriteStr(span[at..], m.Container);
            at += WriteStr(span[at..], m.PartitionKey);
            at += WriteStr(span[at..], m.Id);
            at += WriteStr(span[at..], m.ETag);
            BinaryPrimitives.WriteInt64LittleEndian(span[at..], m.Timestamp);
            BinaryPrimitives.WriteInt32LittleEndian(span[(at + 8)..], m.TimeToLive ?? NoTimeToLive);
            BinaryPrimitives.WriteInt32LittleEndian(span[(at + 12)..], m.Body.Length);
            at += 16;
            m.Body.Span.CopyTo(span[at..]);
            at += m.Body.Length;
        }

        DurableLogFormat.Seal(record);
        return record;
    }

    /// <summary>Decodes a record's payload (CRC already checked); false when its fields do not add up to exactly the
    /// payload (a CRC vouches for the bytes, not for a writer that wrote them wrong): the caller treats the record as
    /// damaged. Bodies are copied: the caller keeps them.</summary>
    public static bool TryDecode(ReadOnlySpan<byte> payload, List<Mutation> into)
    {
        ArgumentNullException.ThrowIfNull(into);
        if (payload.Length < 2)
        {
            return false;
        }

        var count = BinaryPrimitives.ReadUInt16LittleEndian(payload);
        var at = 2;
        for (var i = 0; i < count; i++)
        {
            if (at >= payload.Length)
            {
                return false;
            }

            var kind = (MutationKind)payload[at++];
            if (!TryReadStr(payload, ref at, out var database) || !TryReadStr(payload, ref at, out var container)
                || !TryReadStr(payload, ref at, out var partitionKey) || !TryReadStr(payload, ref at, out var id)
                || !TryReadStr(payload, ref at, out var etag) || payload.Length - at < 16)
            {
                return false;
            }

            var ts = BinaryPrimitives.ReadInt64LittleEndian(payload[at..]);
            var ttl = BinaryPrimitives.ReadInt32LittleEndian(payload[(at + 8)..]);
            var bodyLength = BinaryPrimitives.ReadInt32LittleEndian(payload[(at + 12)..]);
            at += 16;
            if (bodyLength < 0 || bodyLength > payload.Length - at)
            {
                return false;
            }

            var body = payload.Slice(at, bodyLength).ToArray();
            at += bodyLength;
            into.Add(new Mutation(kind, database, container, partitionKey, id, body, etag, ts, ttl == NoTimeToLive ? null : ttl));
        }

        return at == payload.Length;
    }

    private static int Str(string value) => 2 + Encoding.UTF8.GetByteCount(value);

    private static int WriteStr(Span<byte> destination, string value)
    {
        var written = Encoding.UTF8.GetBytes(value, destination[2..]);
        BinaryPrimitives.WriteUInt16LittleEndian(destination, checked((ushort)written));
        return 2 + written;
    }

    private static bool TryReadStr(ReadOnlySpan<byte> source, ref int at, out string value)
    {
        value = "";
        if (source.Length - at < 2)
        {
            return false;
        }

        var length = BinaryPrimitives.ReadUInt16LittleEndian(source[at..]);
        if (length > source.Length - at - 2)
        {
            return false;
        }

        value = Encoding.UTF8.GetString(source.Slice(at + 2, length));
        at += 2 + length;
        return true;
    }
}
