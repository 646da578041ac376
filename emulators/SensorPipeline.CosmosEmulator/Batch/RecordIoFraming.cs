using System.Buffers.Binary;

namespace SensorPipeline.CosmosEmulator.Batch;

/// <summary>
/// HybridRow RecordIO framing around the batch rows: one segment header row, then per record a record header row
/// (body length, CRC-32 of the body) followed by the body row.
/// </summary>
internal static class RecordIoFraming
{
    // Segment row: header, 1 presence byte (its "length" column is nullable), int32 length of the segment row
    // itself. Sparse comment/schema fields may follow inside that length; the SDKs write none.
    public const int MinimalSegmentSize = HybridRowFormat.HeaderSize + 1 + 4;

    // Record row: header, then two non-nullable fixed columns (so no presence byte): int32 length, uint32 crc32.
    public const int RecordHeaderSize = HybridRowFormat.HeaderSize + 4 + 4;

    /// <summary>Writes the segment header the SDKs write: no comment, no schema, length = its own size.</summary>
    public static void WriteSegment(Span<byte> destination)
    {
        HybridRowFormat.WriteHeader(destination, HybridRowFormat.SegmentSchemaId);
        destination[HybridRowFormat.HeaderSize] = 0x01;
        BinaryPrimitives.WriteInt32LittleEndian(destination[(HybridRowFormat.HeaderSize + 1)..], MinimalSegmentSize);
    }

    /// <summary>Writes a record header for <paramref name="body"/>.</summary>
    public static void WriteRecordHeader(Span<byte> destination, ReadOnlySpan<byte> body)
    {
        HybridRowFormat.WriteHeader(destination, HybridRowFormat.RecordSchemaId);
        BinaryPrimitives.WriteInt32LittleEndian(destination[HybridRowFormat.HeaderSize..], body.Length);
        BinaryPrimitives.WriteUInt32LittleEndian(destination[(HybridRowFormat.HeaderSize + 4)..], RecordIoCrc32.Compute(body));
    }

    /// <summary>
    /// Reads the record at <paramref name="offset"/> (skipping any segment headers before it), checks its CRC and
    /// returns its body's range in <paramref name="stream"/>; false at the end of the stream. The caller keeps
    /// <paramref name="segmentSeen"/> across calls (false before the first).
    /// </summary>
    public static bool TryReadRecord(ReadOnlySpan<byte> stream, ref int offset, ref bool segmentSeen, out Range body)
    {
        while (offset < stream.Length)
        {
            var rest = stream[offset..];
            if (rest.Length < HybridRowFormat.HeaderSize || rest[0] != HybridRowFormat.Version1)
            {
                throw new BatchFormatException($"Byte {offset}: expected a RecordIO segment or record header.");
            }

            var schemaId = BinaryPrimitives.ReadInt32LittleEndian(rest[1..]);
            if (schemaId == HybridRowFormat.SegmentSchemaId)
            {
                offset += ReadSegmentLength(rest, offset);
                segmentSeen = true;
                continue;
            }

            if (schemaId != HybridRowFormat.RecordSchemaId || !segmentSeen)
            {
                throw new BatchFormatException(
                    segmentSeen
                        ? $"Byte {offset}: schema id {schemaId} where a RecordIO record header belongs."
                        : "The body does not start with a RecordIO segment header.");
            }

            if (rest.Length < RecordHeaderSize)
            {
                throw new BatchFormatException($"Byte {offset}: the body ends inside a record header.");
            }

            var length = BinaryPrimitives.ReadInt32LittleEndian(rest[HybridRowFormat.HeaderSize..]);
            var crc = BinaryPrimitives.ReadUInt32LittleEndian(rest[(HybridRowFormat.HeaderSize + 4)..]);
            if (length <= 0 || length > rest.Length - RecordHeaderSize)
            {
                throw new BatchFormatException(
                    $"Byte {offset}: record length {length} does not fit the {rest.Length - RecordHeaderSize} bytes left.");
            }

            var start = offset + RecordHeaderSize;
            if (RecordIoCrc32.Compute(stream.Slice(start, length)) != crc)
            {
                throw new BatchFormatException($"Byte {offset}: record CRC-32 mismatch (corrupt body).");
            }

            body = start..(start + length);
            offset = start + length;
            return true;
        }

        if (!segmentSeen)
        {
            throw new BatchFormatException("The body is empty: expected a RecordIO segment header.");
        }

        body = default;
        return false;
    }

    private static int ReadSegmentLength(ReadOnlySpan<byte> rest, int offset)
    {
        if (rest.Length < MinimalSegmentSize)
        {
            throw new BatchFormatException($"Byte {offset}: the body ends inside a RecordIO segment header.");
        }

        var length = BinaryPrimitives.ReadInt32LittleEndian(rest[(HybridRowFormat.HeaderSize + 1)..]);
        if ((rest[HybridRowFormat.HeaderSize] & 0x01) == 0 || length < MinimalSegmentSize || length > rest.Length)
        {
            throw new BatchFormatException($"Byte {offset}: RecordIO segment length {length} is missing or out of range.");
        }

        return length;
    }
}
