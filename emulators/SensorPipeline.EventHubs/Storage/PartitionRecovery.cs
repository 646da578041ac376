using System.Buffers.Binary;
using Microsoft.Extensions.Logging;
using Microsoft.Win32.SafeHandles;
using SensorPipeline.Emulators.Common;

namespace SensorPipeline.EventHubs.Storage;

/// <summary>Rebuilds a partition from its files at start: opens its segments, takes their record positions from the
/// index or a scan, cuts a torn tail off the newest, and leaves the newest open for the writer. Sealed segments must
/// be intact (they were fsynced when sealed under Always and Interval); only the newest segment may end in a torn
/// record, which is cut off — a torn record was never acknowledged, because acknowledgement follows the write (and the
/// fsync under Always). A bad or missing record before the newest segment's durable mark is not a torn write but damage
/// to acknowledged events: the start is refused, naming the file and the byte, and nothing is cut.</summary>
internal sealed class PartitionRecovery(string hub, string partitionId, string directory, EventLogOptions options, ILogger logger, LogStorage storage)
{
    /// <summary>The partition's segments, oldest first, and the newest one's files opened for writing.</summary>
    public (List<Segment> Segments, SafeFileHandle ActiveLog, SafeFileHandle ActiveIndex) Recover()
    {
        var files = SegmentFileNames();
        RemoveHeaderlessNewest(files);
        if (files.Count == 0)
        {
            var (first, firstLog, firstIndex) = SegmentFiles.Create(directory, 0, 0, options, storage);
            return ([first], firstLog, firstIndex);
        }

        var segments = new List<Segment>(files.Count);
        for (var i = 0; i < files.Count; i++)
        {
            var (path, _, baseSequence) = files[i];
            var isLast = i == files.Count - 1;
            var handle = File.OpenHandle(path, FileMode.Open, isLast ? FileAccess.ReadWrite : FileAccess.Read, FileShare.Read | FileShare.Delete);
            try
            {
                var segment = RecoverSegment(handle, path, baseSequence, isLast);
                if (segments.Count > 0)
                {
                    EnsureFollows(segments[^1], path, baseSequence, segment.BaseOffset);
                }

                segments.Add(segment);
                if (!isLast)
                {
                    handle.Dispose();
                    continue;
                }

                var index = File.OpenHandle(Path.ChangeExtension(path, ".idx"), FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.Read | FileShare.Delete);
                return (segments, handle, index);
            }
            catch
            {
                handle.Dispose();
                throw;
            }
        }

        throw new InvalidOperationException("unreachable: the last segment returns");
    }

    private List<(string Path, bool Ok, long Base)> SegmentFileNames() =>
        Directory.GetFiles(directory, "*.log")
            .Select(path => (Path: path, Ok: Segment.TryParseFileName(path, out var b), Base: b))
            .Where(f => f.Ok)
            .OrderBy(f => f.Base)
            .ToList();

    /// <summary>A crash between creating a segment file and fsyncing its header leaves a file shorter than a header.</summary>
    private void RemoveHeaderlessNewest(List<(string Path, bool Ok, long Base)> files)
    {
        if (files.Count > 1 && new FileInfo(files[^1].Path).Length < RecordFormat.SegmentHeaderSize)
        {
            SegmentFiles.Delete(files[^1].Path);
            EventHubsLog.EmptySegmentRemoved(logger, hub, partitionId, files[^1].Path);
            files.RemoveAt(files.Count - 1);
        }
    }

    /// <summary>Checks the segment file's version and header, then takes its records from the index when that checks
    /// out (sealed segments only) or from a scan, which rewrites the index.</summary>
    private Segment RecoverSegment(SafeFileHandle handle, string path, long baseSequence, bool isLast)
    {
        if (SegmentRecovery.FormatVersion(handle) is { } version and < RecordFormat.Version)
        {
            throw RecordFormat.OlderVersion(path, version, Path.GetDirectoryName(Path.GetDirectoryName(directory))!);
        }

        if (!SegmentRecovery.TryReadHeader(handle, out var headerSequence, out var baseOffset, out var durableMark) || headerSequence != baseSequence)
        {
            throw new InvalidDataException($"{path}: not a segment file of this emulator (bad header). Move it away or delete the partition directory.");
        }

        var indexPath = Path.ChangeExtension(path, ".idx");
        var result = isLast ? null : SegmentRecovery.TryLoadIndex(handle, indexPath, baseSequence);
        if (result is null)
        {
            result = SegmentRecovery.Scan(handle, path, baseSequence);
            CutTornTail(handle, path, indexPath, baseSequence, result, isLast ? durableMark : null, isLast);
            WriteIndex(indexPath, result.Positions, result.Count);
        }

        return new Segment(directory, baseSequence, baseOffset, result.Positions, result.Count, result.ValidLength, result.LastTicks);
    }

    /// <summary>Cuts a torn tail off the newest segment; anywhere else (or before the durable mark) it is damage.</summary>
    private void CutTornTail(
        SafeFileHandle handle, string path, string indexPath, long baseSequence, SegmentRecovery.Result result, long? durableMark, bool isLast)
    {
        var tornTail = DurableLogFormat.TornTailToCut(path, result.ValidLength, result.FileLength, durableMark,
            $"acknowledged events from sequence number {baseSequence + result.Count} on",
            "Restore the file from a copy, or move the partition directory away to start the partition empty.");
        if (tornTail)
        {
            if (!isLast)
            {
                throw new InvalidDataException(
                    $"{path}: corrupt record at byte {result.ValidLength} of a sealed segment (later segments follow it). Restore the file or delete the partition directory.");
            }

            // Cut the torn tail and make the cut durable before anything is appended after it.
            RandomAccess.SetLength(handle, result.ValidLength);
            RandomAccess.FlushToDisk(handle);
            EventHubsLog.TornTailTruncated(logger, hub, partitionId, path, result.ValidLength, result.FileLength - result.ValidLength);
        }
        else if (!isLast)
        {
            EventHubsLog.IndexRebuilt(logger, hub, partitionId, indexPath);
        }
    }

    private static void EnsureFollows(Segment previous, string path, long baseSequence, long baseOffset)
    {
        if (previous.NextSequence != baseSequence || previous.OffsetOf(previous.Length) != baseOffset)
        {
            throw new InvalidDataException(
                $"{path}: begins at sequence number {baseSequence}, offset {baseOffset}, but the previous segment ends at {previous.NextSequence}, offset {previous.OffsetOf(previous.Length)}.");
        }
    }

    private static void WriteIndex(string indexPath, int[] positions, int count)
    {
        var bytes = new byte[count * 4];
        for (var i = 0; i < count; i++)
        {
            BinaryPrimitives.WriteInt32LittleEndian(bytes.AsSpan(i * 4), positions[i]);
        }

        File.WriteAllBytes(indexPath, bytes);
    }
}
