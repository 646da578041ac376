using System.Buffers.Binary;
using Microsoft.Win32.SafeHandles;
using SensorPipeline.Emulators.Common;

namespace SensorPipeline.EventHubs.Storage;

/// <summary>Rebuilds a segment's in-memory state at start-up: trusts a sealed segment's index when its last entry
/// checks out, otherwise scans the records, stopping at the first torn, corrupt or out-of-sequence one.</summary>
internal static class SegmentRecovery
{
    public sealed record Result(int[] Positions, int Count, long ValidLength, long FileLength, long LastTicks, bool FromIndex);

    /// <summary>Reads and checks the header; false when the file is too short or not a segment.
    /// <paramref name="durableMark"/>: how many bytes of the segment are known durable and acknowledged, if recorded.</summary>
    public static bool TryReadHeader(SafeFileHandle handle, out long baseSequence, out long baseOffset, out long? durableMark)
    {
        Span<byte> header = stackalloc byte[RecordFormat.SegmentHeaderSize];
        var read = RandomAccess.Read(handle, header, 0);
        baseSequence = baseOffset = 0;
        durableMark = null;
        if (read != header.Length || !RecordFormat.TryReadSegmentHeader(header, out baseSequence, out baseOffset))
        {
            return false;
        }

        durableMark = RecordFormat.DurableMarkOf(header);
        return true;
    }

    /// <summary>The format version in the segment's header; null when the file has no header of this emulator.</summary>
    public static uint? FormatVersion(SafeFileHandle handle)
    {
        Span<byte> prefix = stackalloc byte[DurableLogFormat.VersionPrefixSize];
        return RandomAccess.Read(handle, prefix, 0) == prefix.Length ? DurableLogFormat.VersionOf(prefix, RecordFormat.Magic) : null;
    }

    /// <summary>Uses the .idx file when its count and last record agree with the log; null when they do not.</summary>
    public static Result? TryLoadIndex(SafeFileHandle log, string indexPath, long baseSequence)
    {
        if (!File.Exists(indexPath))
        {
            return null;
        }

        var bytes = File.ReadAllBytes(indexPath);
        var count = bytes.Length / 4;
        if (count == 0)
        {
            return null;
        }

        var fileLength = RandomAccess.GetLength(log);
        var positions = new int[Math.Max(1024, count)];
        var previous = RecordFormat.SegmentHeaderSize - RecordFormat.RecordOverhead;
        for (var i = 0; i < count; i++)
        {
            positions[i] = BinaryPrimitives.ReadInt32LittleEndian(bytes.AsSpan(i * 4));

            // Each record is at least RecordOverhead long: any other step means a damaged index (rebuild it).
            if (positions[i] - previous < RecordFormat.RecordOverhead || positions[i] >= fileLength)
            {
                return null;
            }

            previous = positions[i];
        }

        var last = positions[count - 1];
        if (last < RecordFormat.SegmentHeaderSize || last >= fileLength)
        {
            return null;
        }

        var record = new byte[fileLength - last];
        if (record.Length > RecordFormat.RecordOverhead + RecordFormat.MaxPayloadSize || RandomAccess.Read(log, record, last) != record.Length)
        {
            return null;
        }

        // The last indexed record must end exactly at the file's end: then nothing follows it and the index is complete.
        var length = RecordFormat.Validate(record, baseSequence + count - 1);
        return length == record.Length
            ? new Result(positions, count, fileLength, fileLength, RecordFormat.TicksOf(record), FromIndex: true)
            : null;
    }

    /// <summary>Scans every record from the header on; <see cref="Result.ValidLength"/> is where the valid records end.</summary>
    public static Result Scan(SafeFileHandle log, string logPath, long baseSequence)
    {
        var fileLength = RandomAccess.GetLength(log);
        var positions = new List<int>(1024);
        long lastTicks = 0;
        var buffer = new byte[RecordFormat.RecordOverhead + RecordFormat.MaxPayloadSize];
        // A stream of its own (not over the handle, which it would close on dispose).
        using var stream = new FileStream(logPath, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete, bufferSize: 1024 * 1024);
        stream.Position = RecordFormat.SegmentHeaderSize;
        long position = RecordFormat.SegmentHeaderSize;
        while (true)
        {
            var header = stream.ReadAtLeast(buffer.AsSpan(0, RecordFormat.RecordHeaderSize), RecordFormat.RecordHeaderSize, throwOnEndOfStream: false);
            if (header < RecordFormat.RecordHeaderSize)
            {
                break;
            }

            var payloadLength = RecordFormat.PayloadLength(buffer);
            if (payloadLength < 0)
            {
                break;
            }

            var read = stream.ReadAtLeast(buffer.AsSpan(RecordFormat.RecordHeaderSize, payloadLength), payloadLength, throwOnEndOfStream: false);
            var recordLength = RecordFormat.RecordHeaderSize + payloadLength;
            if (read < payloadLength || RecordFormat.Validate(buffer.AsSpan(0, recordLength), baseSequence + positions.Count) != recordLength)
            {
                break;
            }

            positions.Add((int)position);
            lastTicks = RecordFormat.TicksOf(buffer);
            position += recordLength;
        }

        var array = new int[Math.Max(1024, positions.Count)];
        positions.CopyTo(array);
        return new Result(array, positions.Count, position, fileLength, lastTicks, FromIndex: false);
    }
}
