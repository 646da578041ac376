using SensorPipeline.Emulators.Common;

namespace SensorPipeline.CosmosEmulator.Log;

/// <summary>The mutation log's file: the emulators' shared durable-log framing (<see cref="DurableLogFormat"/>: header
/// with the durable mark, records of length, CRC-32C and payload), with nothing of its own in the header.
/// <code>
/// file header (24 bytes): "SPCL" | u32 version 3 | i64 durable mark | i64 its complement
/// record: u32 payload length | u32 CRC-32C of payload | payload (one or more mutations, see MutationCodec)
/// </code>
/// A record is the unit of atomicity: a transactional batch is one record, so a torn tail never half-applies it.
/// Version 3 holds device states whose version keys have no '2' prefix; a version 2 log's states would outrank every
/// new reading, so it must not be read (<see cref="OtherVersion"/>).</summary>
internal static class LogFormat
{
    public const int FileHeaderSize = DurableLogFormat.HeaderSize;
    public const uint Magic = 0x4C435053; // "SPCL"
    public const uint Version = 3;

    /// <summary>Largest payload recovery accepts: a transactional batch of 100 documents of 2 MB, with room to spare.</summary>
    public const int MaxPayloadSize = 256 * 1024 * 1024;

    /// <summary>A header whose durable mark is <paramref name="durableLength"/>.</summary>
    public static byte[] FileHeader(long durableLength = FileHeaderSize)
    {
        var header = new byte[FileHeaderSize];
        DurableLogFormat.WriteHeader(header, Magic, Version, durableLength);
        return header;
    }

    /// <summary>The payload length of the record at the start of <paramref name="header"/>, or -1 when the length
    /// cannot be a record's (a torn or corrupt tail).</summary>
    public static int PayloadLength(ReadOnlySpan<byte> header) => DurableLogFormat.PayloadLength(header, 1, MaxPayloadSize);

    /// <summary>Why a log of <paramref name="version"/> at <paramref name="path"/> is refused, and how to reset.</summary>
    public static InvalidDataException OtherVersion(string path, uint version) => DurableLogFormat.OtherFormat(
        path, "a Cosmos DB emulator log", version, Version,
        $"Delete the directory {Path.GetDirectoryName(path)} to start empty (`./pipeline up` keeps its data in .pipeline/up).");
}
