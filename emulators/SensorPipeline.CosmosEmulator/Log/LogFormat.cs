using System.Buffers.Binary;
using SensorPipeline.Emulators.Common;

namespace SensorPipeline.CosmosEmulator.Log;

/// <summary>The layout of the mutation log (integers little-endian).
/// <code>
/// file header (8 bytes): "SPCL" | u32 version
/// record: u32 payload length | u32 CRC-32C of payload | payload (one or more mutations, see MutationCodec)
/// </code>
/// A record is the unit of atomicity: a transactional batch is one record, so a torn tail never half-applies it.
/// The CRC is the Event Hubs emulator's (one implementation).</summary>
internal static class LogFormat
{
    public const int FileHeaderSize = 8;
    public const uint Magic = 0x4C435053; // "SPCL"
    public const uint Version = 1;
    public const int RecordHeaderSize = 8;

    /// <summary>Largest payload recovery accepts: a transactional batch of 100 documents of 2 MB, with room to spare.</summary>
    public const int MaxPayloadSize = 256 * 1024 * 1024;

    public static byte[] FileHeader()
    {
        var header = new byte[FileHeaderSize];
        BinaryPrimitives.WriteUInt32LittleEndian(header, Magic);
        BinaryPrimitives.WriteUInt32LittleEndian(header.AsSpan(4), Version);
        return header;
    }

    public static bool IsFileHeader(ReadOnlySpan<byte> source) =>
        source.Length >= FileHeaderSize
        && BinaryPrimitives.ReadUInt32LittleEndian(source) == Magic
        && BinaryPrimitives.ReadUInt32LittleEndian(source[4..]) == Version;

    /// <summary>Seals a record whose payload was written after <see cref="RecordHeaderSize"/> bytes of room.</summary>
    public static void Seal(Span<byte> record)
    {
        var payload = record[RecordHeaderSize..];
        BinaryPrimitives.WriteInt32LittleEndian(record, payload.Length);
        BinaryPrimitives.WriteUInt32LittleEndian(record[4..], Crc32C.Compute(payload));
    }

    /// <summary>The payload length of the record at the start of <paramref name="header"/>, or -1 when the length
    /// cannot be a record's (a torn or corrupt tail).</summary>
    public static int PayloadLength(ReadOnlySpan<byte> header)
    {
        var length = BinaryPrimitives.ReadInt32LittleEndian(header);
        return length is > 0 and <= MaxPayloadSize ? length : -1;
    }

    public static bool CrcMatches(ReadOnlySpan<byte> header, ReadOnlySpan<byte> payload) =>
        BinaryPrimitives.ReadUInt32LittleEndian(header[4..]) == Crc32C.Compute(payload);
}
