using SensorPipeline.Emulators.Common;

namespace SensorPipeline.EventHubs.Storage;

/// <summary>What a failing disk does to a partition. A group whose write (or fsync under Always) fails was never
/// acknowledged: its callers get <see cref="PartitionUnavailableException"/> (HTTP 503 + Retry-After), and the
/// partition rolls back to its last acknowledged record — file, index, segment list, cache and next sequence number —
/// so the next append simply tries again and the partition recovers by itself once writes succeed. Acknowledged data
/// is untouched, and Interval durability's pending fsync still runs while writes fail. Only a failure of the rollback
/// itself leaves the partition refusing appends until restart (recovery then cuts any partial write).</summary>
internal sealed partial class PartitionWriter
{
    /// <summary>The writer's state at the start of a group: the last acknowledged record is what it describes.</summary>
    private sealed record WriteMark(Segment Active, int Count, long Length, long LastTicks, int IndexedCount, long NextSequence);

    private void ThrowIfBroken()
    {
        if (_fault is { } fault)
        {
            throw new PartitionUnavailableException(
                $"Partition {_state.Hub}/{_state.PartitionId} could not undo a failed write and refuses appends until the devhost restarts (recovery then cuts the partial write).", fault);
        }
    }

    private async Task WriteGroupOrRollBackAsync()
    {
        var active = _state.Segments[^1];
        var mark = new WriteMark(active, active.Count, active.Length, active.LastTicks, _files.IndexedCount, _nextSequence);
        try
        {
            ThrowIfBroken();
            await WriteGroupAsync();
        }
        catch (Exception e)
        {
            _files.ClearPending();
            if (_fault is null)
            {
                EventHubsLog.WriteFailed(_logger, _state.Hub, _state.PartitionId, _group.Count, e);
                TryRollBack(mark);
            }

            foreach (var request in _group)
            {
                request.Completion!.TrySetException(PartitionUnavailableException.For(_state.Hub, _state.PartitionId, e));
                request.ReturnBuffer();
            }
        }
    }

    private void TryRollBack(WriteMark mark)
    {
        try
        {
            RollBack(mark);
        }
        catch (Exception e)
        {
            _fault = e;
            EventHubsLog.PartitionFaulted(_logger, _state.Hub, _state.PartitionId, e);
        }
    }

    private void RollBack(WriteMark mark)
    {
        var segments = _state.Segments;
        var at = Array.IndexOf(segments, mark.Active);
        if (at < 0)
        {
            throw new InvalidOperationException($"Partition {_state.Hub}/{_state.PartitionId}: the segment being written before the failure is gone.");
        }

        if (at < segments.Length - 1)
        {
            // The group rolled into new segments: drop them and write into the old one again.
            _state.Segments = segments[..(at + 1)];
            _files.Dispose();
            foreach (var created in segments[(at + 1)..])
            {
                _state.Cache.Drop(created);
                SegmentFiles.Delete(created.LogPath);
            }

            _files.Reopen(mark.Active);
        }

        // Shrinking needs no space, so it works on a full disk; it removes whatever part of the group reached the file.
        _files.Truncate(mark.Length, mark.IndexedCount);
        mark.Active.Rollback(mark.Count, mark.Length, mark.LastTicks);
        _state.Cache.Drop(mark.Active); // it may hold records of the failed group; readers fall back to the file
        _nextSequence = mark.NextSequence;
    }

    /// <summary>Makes every write so far durable (Interval's commit point, and shutdown). A failed fsync keeps the data
    /// pending, so the next interval tries again.</summary>
    private void FlushPending()
    {
        try
        {
            var length = _state.Segments[^1].Length;
            _files.FlushLog();
            _dirty = false;
            _files.MarkDurable(length);
        }
        catch (IOException e)
        {
            EventHubsLog.FlushFailed(_logger, _state.Hub, _state.PartitionId, e);
        }
    }
}
