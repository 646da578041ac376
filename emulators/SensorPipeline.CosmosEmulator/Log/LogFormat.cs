using System.Buffers.Binary;
using SensorPipeline.Emulators.Common;

namespace SensorPipeline.CosmosEmulator.Log;

/// <summary>The layout of the mutation log (integers little-endian).
/// <code>
/// file header (24 bytes): "SPCL" | u32 version 3 | i64 durable mark | i64 its complement
/// record: u32 payload length | u32 CRC-32C of payload | payload (one or more mutations, see MutationCodec)
/// </code>
/// A record is the unit of atomicity: a transactional batch is one record, so a torn tail never half-applies it.
/// The durable mark is how many bytes of the file are known durable and acknowledged: a bad record past it is a torn
/// write, one before it is damage. The CRC is the emulators' shared one.
/// Stored formats are replaced, not migrated, until the product's first release: a log of another version is refused
/// at start-up (<see cref="OtherVersion"/>). Version 3 holds device states whose version keys have no '2' prefix; a
/// version 2 log's states would outrank every new reading, so it must not be read.</summary>
internal static class LogFormat
{
    public const int FileHeaderSize = 24;
    public const int HeaderPrefixSize = 8;
    public const uint Magic = 0x4C435053; // "SPCL"
    public const uint Version = 3;
    public const int DurableMarkOffset = 8;
    public const int RecordHeaderSize = 8;

    /// <summary>Largest payload recovery accepts: a transactional batch of 100 documents of 2 MB, with room to spare.</summary>
    public const int MaxPayloadSize = 256 * 1024 * 1024;

    /// <summary>A version 2 header whose durable mark is <paramref name="durableLength"/>.</summary>
    public static byte[] FileHeader(long durableLength = FileHeaderSize)
    {
        var header = new byte[FileHeaderSize];
        BinaryPrimitives.WriteUInt32LittleEndian(header, Magic);
        BinaryPrimitives.WriteUInt32LittleEndian(header.AsSpan(4), Version);
        WriteDurableMark(header.AsSpan(DurableMarkOffset), durableLength);
        return header;
    }

    /// <summary>The log version in <paramref name="first8"/> (the file's first 8 bytes), or null when they are not a
    /// mutation log's.</summary>
    public static uint? VersionOf(ReadOnlySpan<byte> first8) =>
        BinaryPrimitives.ReadUInt32LittleEndian(first8) == Magic ? BinaryPrimitives.ReadUInt32LittleEndian(first8[4..]) : null;

    /// <summary>Why a log of <paramref name="version"/> at <paramref name="path"/> is refused, and how to reset.</summary>
    public static string OtherVersion(string path, uint version) =>
        $"{path} is a Cosmos DB emulator log of format {version}; this emulator reads only format {Version} (stored formats are "
        + $"replaced, not migrated). Delete the directory {Path.GetDirectoryName(path)} to start empty (`./pipeline up` keeps "
        + "its data in .pipeline/up).";

    /// <summary>Writes the 16-byte durable mark: <paramref name="length"/> and its complement.</summary>
    public static void WriteDurableMark(Span<byte> destination, long length)
    {
        BinaryPrimitives.WriteInt64LittleEndian(destination, length);
        BinaryPrimitives.WriteInt64LittleEndian(destination[8..], ~length);
    }

    /// <summary>The durable mark of a version 2 header, or null when it does not check out.</summary>
    public static long? DurableMarkOf(ReadOnlySpan<byte> header)
    {
        var length = BinaryPrimitives.ReadInt64LittleEndian(header[DurableMarkOffset..]);
        return BinaryPrimitives.ReadInt64LittleEndian(header[(DurableMarkOffset + 8)..]) == ~length && length >= FileHeaderSize ? length : null;
    }

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
