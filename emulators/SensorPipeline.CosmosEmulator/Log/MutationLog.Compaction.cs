using SensorPipeline.Emulators.Common;

namespace SensorPipeline.CosmosEmulator.Log;

internal sealed partial class MutationLog
{
    /// <summary>When the log has passed the threshold and is mostly dead records —
    /// and, after a compaction that failed, has grown by another threshold since.</summary>
    private bool ShouldCompact() =>
        _length > _compactionThreshold && _length > 2 * _liveBytes() && _length >= _compactionRetryAt;

    /// <summary>Compacts; when the disk refuses the new file, deletes it and keeps the old log (intact: nothing of it was
    /// touched), so a full disk only postpones the compaction — the store keeps taking writes.</summary>
    private void CompactOrPostpone()
    {
        var temporary = _path + ".compacting";
        long length;
        try
        {
            length = WriteSnapshot(temporary);
        }
        catch (IOException e)
        {
            _compactionRetryAt = _length + _compactionThreshold;
            StorageLog.CompactionFailed(_logger, _path, _compactionRetryAt, e);
            TryDelete(temporary);
            return;
        }

        try
        {
            SwapIn(temporary, length);
            _compactionRetryAt = 0;
        }
        catch (IOException e)
        {
            // The rename or the reopen failed: which file is the log is no longer certain, so stop writing.
            _fault = e;
            StorageLog.LogFaulted(_logger, _path, e);
        }
    }

    private static void TryDelete(string path)
    {
        try
        {
            File.Delete(path);
        }
        catch (IOException)
        {
            // Left for the next start, which deletes a leftover temporary file before opening the log.
        }
    }

    /// <summary>Rewrites the log as the live data: written beside it, fsynced, then renamed over it (atomic), so a
    /// crash at any point leaves either the old log or the new one. Runs on the writer loop between groups: every
    /// record already written was applied to memory, so it is in the snapshot, and records queued meanwhile follow it
    /// (replaying a put or delete twice is harmless).</summary>
    private long WriteSnapshot(string temporary)
    {
        long length;
        using (var file = File.OpenHandle(temporary, FileMode.Create, FileAccess.ReadWrite, FileShare.None))
        {
            length = LogFormat.FileHeaderSize;
            var batch = new List<ReadOnlyMemory<byte>>(1024);
            long batchBytes = 0;
            foreach (var record in _snapshot())
            {
                batch.Add(record);
                batchBytes += record.Length;
                if (batchBytes >= MaxGroupBytes)
                {
                    _storage.Write(file, batch, length);
                    (length, batchBytes) = (length + batchBytes, 0);
                    batch.Clear();
                }
            }

            _storage.Write(file, batch, length);
            length += batchBytes;

            // The header last: its durable mark covers the whole file, made durable with it by this one fsync before
            // the rename — no record of it is acknowledged before that.
            _storage.Write(file, LogFormat.FileHeader(length), 0);
            _storage.Flush(file);
        }

        return length;
    }

    private void SwapIn(string temporary, long length)
    {
        var before = _length;
        File.Move(temporary, _path, overwrite: true);

        // The rename is durable only once the directory is: until then power loss could bring the old log back.
        _storage.FlushDirectory(Path.GetDirectoryName(_path)!);
        var reopened = File.OpenHandle(_path, FileMode.Open, FileAccess.ReadWrite, FileShare.Read);
        _file.Dispose();
        _file = reopened;
        Interlocked.Exchange(ref _length, length);
        _dirty = false;
        Compactions++;
        StorageLog.Compacted(_logger, _path, before, length);
    }
}
