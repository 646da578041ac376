using Microsoft.Win32.SafeHandles;
using SensorPipeline.Emulators.Common;

namespace SensorPipeline.EventHubs.Storage;

/// <summary>A segment's two files (<c>.log</c> and <c>.idx</c>): created, reopened for writing, deleted.</summary>
internal static class SegmentFiles
{
    /// <summary>Starts a segment: its header written (and fsynced, with its directory entry, unless durability is
    /// None) and its empty index. A segment that could not be started is removed again.</summary>
    public static (Segment Segment, SafeFileHandle Log, SafeFileHandle Index) Create(string directory, long baseSequence, long baseOffset, EventLogOptions options, LogStorage storage)
    {
        var segment = new Segment(directory, baseSequence, baseOffset, [], 0, RecordFormat.SegmentHeaderSize, 0);
        var log = File.OpenHandle(segment.LogPath, FileMode.CreateNew, FileAccess.ReadWrite, FileShare.Read | FileShare.Delete);
        SafeFileHandle? index = null;
        try
        {
            Span<byte> header = stackalloc byte[RecordFormat.SegmentHeaderSize];
            RecordFormat.WriteSegmentHeader(header, baseSequence, baseOffset);
            storage.Write(log, header, 0);
            index = File.OpenHandle(segment.IndexPath, FileMode.Create, FileAccess.ReadWrite, FileShare.Read | FileShare.Delete);
            if (options.Durability != DurabilityMode.None)
            {
                // The header must be on disk before records follow it, or recovery could not place them; and the new
                // file's directory entry must be too, or an fsynced (acknowledged) record could vanish with its file.
                storage.Flush(log);
                storage.FlushDirectory(directory);
            }

            return (segment, log, index);
        }
        catch
        {
            // A segment that could not be started (a full disk) is removed again, so the partition stays as it was.
            log.Dispose();
            index?.Dispose();
            Delete(segment.LogPath);
            throw;
        }
    }

    public static SafeFileHandle OpenForWrite(string path) =>
        File.OpenHandle(path, FileMode.Open, FileAccess.ReadWrite, FileShare.Read | FileShare.Delete);

    public static void Delete(string logPath)
    {
        File.Delete(logPath);
        File.Delete(Path.ChangeExtension(logPath, ".idx"));
    }
}
