using System.Buffers.Binary;
using Microsoft.Win32.SafeHandles;

namespace SensorPipeline.Emulators.Common;

/// <summary>
/// The framing both emulators' durable logs share (the Event Hubs emulator's partition segments, the Cosmos DB
/// emulator's mutation log); what a record holds is each log's own. Integers little-endian.
/// <code>
/// file header: u32 magic | u32 format version | i64 durable mark | i64 its complement | the log's own fields
/// record:      u32 payload length | u32 CRC-32C of payload | payload
/// </code>
/// The durable mark is how many bytes of the file are known durable and acknowledged (a torn or zeroed mark reads as
/// none). Recovery keeps the intact records from the header on and judges what follows by it (<see cref="TornTailToCut"/>):
/// past the mark, a torn tail that was never acknowledged, cut; before it, damage to acknowledged data, and the start
/// is refused. Stored formats are replaced, not migrated, until the product's first release: a file of another
/// version is refused at start-up, naming what to delete (<see cref="OtherFormat"/>).
/// </summary>
public static class DurableLogFormat
{
    /// <summary>Bytes of the shared part of a file header: magic, version and the durable mark.</summary>
    public const int HeaderSize = 24;

    /// <summary>Writes the shared header (<see cref="HeaderSize"/> bytes) with a durable mark of <paramref name="durableLength"/>.</summary>
    public static void WriteHeader(Span<byte> destination, uint magic, uint version, long durableLength)
    {
        BinaryPrimitives.WriteUInt32LittleEndian(destination, magic);
        BinaryPrimitives.WriteUInt32LittleEndian(destination[4..], version);
        WriteDurableMark(destination[DurableMarkOffset..], durableLength);
    }

    /// <summary>Bytes of magic and version, what tells a file's format before anything else is read.</summary>
    public const int VersionPrefixSize = 8;

    /// <summary>The format version in a file's first <see cref="VersionPrefixSize"/> bytes, or null when they do not
    /// start with <paramref name="magic"/> (not a file of this log at all).</summary>
    public static uint? VersionOf(ReadOnlySpan<byte> prefix, uint magic) =>
        prefix.Length >= VersionPrefixSize && BinaryPrimitives.ReadUInt32LittleEndian(prefix) == magic
            ? BinaryPrimitives.ReadUInt32LittleEndian(prefix[4..])
            : null;

    /// <summary>Where the durable mark sits in the file header.</summary>
    public const int DurableMarkOffset = 8;

    /// <summary>Bytes of the durable mark: the length and its complement.</summary>
    public const int DurableMarkSize = 16;

    /// <summary>Writes the <see cref="DurableMarkSize"/>-byte durable mark: <paramref name="length"/> and its complement.</summary>
    public static void WriteDurableMark(Span<byte> destination, long length)
    {
        BinaryPrimitives.WriteInt64LittleEndian(destination, length);
        BinaryPrimitives.WriteInt64LittleEndian(destination[8..], ~length);
    }

    /// <summary>The durable mark of a file header, or null when it does not check out or marks less than the file's
    /// header of <paramref name="headerSize"/> bytes (none recorded yet).</summary>
    public static long? DurableMarkOf(ReadOnlySpan<byte> header, int headerSize)
    {
        var length = BinaryPrimitives.ReadInt64LittleEndian(header[DurableMarkOffset..]);
        return BinaryPrimitives.ReadInt64LittleEndian(header[(DurableMarkOffset + 8)..]) == ~length && length >= headerSize ? length : null;
    }

    /// <summary>Records in <paramref name="file"/>'s header that its first <paramref name="length"/> bytes are durable;
    /// called after the fsync that made them so, and made durable itself by the next one, so the mark never claims
    /// more than is on disk. Best effort: the failure is returned, and a mark that fails to write leaves the older one,
    /// which only narrows what recovery can tell apart.</summary>
    public static IOException? TryMarkDurable(LogStorage storage, SafeFileHandle file, long length)
    {
        ArgumentNullException.ThrowIfNull(storage);
        Span<byte> mark = stackalloc byte[DurableMarkSize];
        WriteDurableMark(mark, length);
        return storage.TryWrite(file, mark, DurableMarkOffset);
    }

    /// <summary>Bytes before a record's payload: its length and CRC.</summary>
    public const int RecordHeaderSize = 8;

    /// <summary>Seals a record whose payload was written after <see cref="RecordHeaderSize"/> bytes of room: its length
    /// and CRC. Returns the record's length.</summary>
    public static int Seal(Span<byte> record)
    {
        var payload = record[RecordHeaderSize..];
        BinaryPrimitives.WriteInt32LittleEndian(record, payload.Length);
        BinaryPrimitives.WriteUInt32LittleEndian(record[4..], Crc32C.Compute(payload));
        return record.Length;
    }

    /// <summary>The payload length in a record header, or -1 when it is outside
    /// [<paramref name="minimum"/>, <paramref name="maximum"/>]: no record of this log is that long (a torn or corrupt tail).</summary>
    public static int PayloadLength(ReadOnlySpan<byte> recordHeader, int minimum, int maximum)
    {
        var length = BinaryPrimitives.ReadInt32LittleEndian(recordHeader);
        return length >= minimum && length <= maximum ? length : -1;
    }

    /// <summary>True when the CRC in <paramref name="recordHeader"/> is that of <paramref name="payload"/>.</summary>
    public static bool CrcMatches(ReadOnlySpan<byte> recordHeader, ReadOnlySpan<byte> payload) =>
        BinaryPrimitives.ReadUInt32LittleEndian(recordHeader[4..]) == Crc32C.Compute(payload);

    /// <summary>
    /// Recovery's rule for what follows the last intact record at <paramref name="validLength"/>. Before the durable
    /// mark it is damage to acknowledged data: cutting there would lose <paramref name="lost"/>, so the start is refused
    /// with an <see cref="InvalidDataException"/> naming the file, the byte and <paramref name="reset"/> (what to do).
    /// Past the mark, it is a torn tail — never acknowledged, as an acknowledgement waits for the whole record — and
    /// the answer is true when there is one to cut.
    /// </summary>
    public static bool TornTailToCut(string path, long validLength, long fileLength, long? durableMark, string lost, string reset)
    {
        if (durableMark is { } mark && validLength < mark)
        {
            throw new InvalidDataException(
                $"{path}: {(validLength < fileLength ? "corrupt record" : "the file ends")} at byte {validLength}, before the {mark} bytes its header "
                + $"records as durable and acknowledged: cutting there would lose {lost}. {reset}");
        }

        return validLength < fileLength;
    }

    /// <summary>Why a file of format <paramref name="version"/> is refused by a reader of <paramref name="current"/>:
    /// the file, what it is (<paramref name="kind"/>), and <paramref name="reset"/> (what to delete to start empty).</summary>
    public static InvalidDataException OtherFormat(string path, string kind, uint version, uint current, string reset) => new(
        $"{path} is {kind} of format {version}; this one reads only format {current} (stored formats are replaced, not migrated), "
        + $"and nothing was changed. {reset}");
}
