using System.Buffers.Binary;
using SensorPipeline.Emulators.Common;

namespace SensorPipeline.Fuzz.Targets;

/// <summary>What the two log targets share: the input as a log file in a fresh directory, resealed when its mode byte
/// asks, and a refused start that must name the file.</summary>
internal static class LogInput
{
    /// <summary>Writes the input after its mode byte as <paramref name="fileName"/> in a fresh directory <paramref name="name"/>,
    /// first through <paramref name="seal"/> when bit 0 of the mode byte is set; null for an empty input.</summary>
    public static string? Write(byte[] input, string name, string fileName, SealAction seal)
    {
        if (input.Length == 0)
        {
            return null;
        }

        var file = input[1..];
        if ((input[0] & 1) != 0)
        {
            seal(file);
        }

        var directory = ScratchDirectory.Fresh(name);
        File.WriteAllBytes(Path.Combine(directory, fileName), file);
        return directory;
    }

    /// <summary>Opens the log; a refused start must say which file to restore or move away.</summary>
    public static T OpenNamingTheFile<T>(string fileName, Func<T> open)
    {
        try
        {
            return open();
        }
        catch (InvalidDataException e) when (!e.Message.Contains(fileName, StringComparison.Ordinal))
        {
            throw new InvariantException("the start was refused without naming the file: " + e.Message);
        }
    }

    /// <summary>Reseals a log file in the framing both logs share (<see cref="DurableLogFormat"/>) as its writer would:
    /// the header's magic and <paramref name="version"/> (its durable mark kept), then each record from
    /// <paramref name="headerSize"/> on, in order, through <paramref name="seal"/> (the record and its index; returns
    /// its length), up to the first whose length <paramref name="payloadLength"/> refuses (-1) or runs past the file.</summary>
    public static void SealRecords(Span<byte> file, int headerSize, uint magic, uint version,
        Func<ReadOnlySpan<byte>, int> payloadLength, Func<Span<byte>, int, int> seal)
    {
        if (file.Length < headerSize)
        {
            return;
        }

        BinaryPrimitives.WriteUInt32LittleEndian(file, magic);
        BinaryPrimitives.WriteUInt32LittleEndian(file[4..], version);
        var at = headerSize;
        for (var index = 0; file.Length - at >= DurableLogFormat.RecordHeaderSize; index++)
        {
            var length = payloadLength(file[at..]);
            if (length < 0 || length > file.Length - at - DurableLogFormat.RecordHeaderSize)
            {
                return;
            }

            at += seal(file.Slice(at, DurableLogFormat.RecordHeaderSize + length), index);
        }
    }

    /// <summary>Reseals a log file's records in place.</summary>
    public delegate void SealAction(Span<byte> file);
}
