using System.Buffers.Binary;
using System.Buffers;
using System.Diagnostics;
using Microsoft.Extensions.Logging;
using Microsoft.Win32.SafeHandles;
using SensorPipeline.Emulators.Common;

namespace SensorPipeline.EventHubs.Storage;

/// <summary>The open files of the segment being written, owned by the writer loop: the log and its index, the record
/// buffers queued for the next gather write, and how many index entries are written.</summary>
internal sealed class ActiveSegmentFiles(PartitionState state, ILogger logger, LogStorage storage, SafeFileHandle log, SafeFileHandle index,
    EventHubsCounters counters) : IDisposable
{
    private readonly List<ReadOnlyMemory<byte>> _pending = new(256);
    private SafeFileHandle _log = log;
    private SafeFileHandle _index = index;

    /// <summary>The records of the segment whose positions are in its index file.</summary>
    public int IndexedCount { get; private set; }

    /// <summary>Queues a batch's stamped records for the next <see cref="WritePendingAsync"/>.</summary>
    public void Queue(ReadOnlyMemory<byte> records) => _pending.Add(records);

    /// <summary>Forgets what is queued (a failed group: its buffers go back to the pool with its requests).</summary>
    public void ClearPending() => _pending.Clear();

    /// <summary>One gather write of the queued record buffers plus their index entries; then the segment publishes
    /// them (readers still wait for the head).</summary>
    public async Task WritePendingAsync(Segment active, long start, long end, long ticks)
    {
        if (_pending.Count == 0)
        {
            return;
        }

        await storage.WriteAsync(_log, _pending, start);
        _pending.Clear();
        var positions = active.Positions;
        var count = active.PendingCount;
        var indexed = IndexedCount;
        var entries = ArrayPool<byte>.Shared.Rent((count - indexed) * 4);
        try
        {
            for (var i = indexed; i < count; i++)
            {
                BinaryPrimitives.WriteInt32LittleEndian(entries.AsSpan((i - indexed) * 4), positions[i]);
            }

            // The index is not fsynced: recovery rebuilds it from the log whenever it disagrees.
            await storage.WriteAsync(_index, entries.AsMemory(0, (count - indexed) * 4), indexed * 4L);
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(entries);
        }

        IndexedCount = count;
        active.Publish(end, ticks);
    }

    /// <summary>Fsyncs the log (the commit point of Always durability, Interval's periodic flush).</summary>
    public void FlushLog() => Fsync(_log);

    /// <summary>Fsyncs the log and its index: a sealed segment is fsynced once, so recovery may trust it complete.</summary>
    public void FlushForSealing()
    {
        Fsync(_log);
        Fsync(_index);
    }

    /// <summary>One fsync, counted and timed (a failed one too: its time was spent).</summary>
    private void Fsync(SafeFileHandle file)
    {
        var started = Stopwatch.GetTimestamp();
        try
        {
            storage.Flush(file);
        }
        finally
        {
            counters.Fsynced(Stopwatch.GetTimestamp() - started);
        }
    }

    /// <summary>Records in the segment's header that its first <paramref name="length"/> bytes are durable (best
    /// effort, <see cref="DurableLogFormat.TryMarkDurable"/>); recovery treats a bad record before it as corruption, not a torn write.</summary>
    public void MarkDurable(long length)
    {
        if (DurableLogFormat.TryMarkDurable(storage, _log, length) is { } failure)
        {
            EventHubsLog.MarkFailed(logger, state.Hub, state.PartitionId, failure);
        }
    }

    /// <summary>Writes into a new segment's files from now on (after a roll).</summary>
    public void SwitchTo(SafeFileHandle newLog, SafeFileHandle newIndex)
    {
        Dispose();
        _log = newLog;
        _index = newIndex;
        IndexedCount = 0;
    }

    /// <summary>Writes into an older segment again, once the files were closed (a rollback that drops the segments a
    /// failed group created).</summary>
    public void Reopen(Segment segment)
    {
        _log = SegmentFiles.OpenForWrite(segment.LogPath);
        _index = SegmentFiles.OpenForWrite(segment.IndexPath);
    }

    /// <summary>Cuts the files back to a log length and index entry count. Shrinking needs no space, so it works on
    /// a full disk.</summary>
    public void Truncate(long length, int indexedCount)
    {
        RandomAccess.SetLength(_log, length);
        RandomAccess.SetLength(_index, indexedCount * 4L);
        IndexedCount = indexedCount;
    }

    public void Dispose()
    {
        _log.Dispose();
        _index.Dispose();
    }
}
