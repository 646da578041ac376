using SensorPipeline.Emulators.Common;

namespace SensorPipeline.CosmosEmulator.Log;

internal sealed partial class MutationLog
{
    /// <summary>Opens (or creates) the log in <paramref name="directory"/>, replays every intact record through
    /// <paramref name="apply"/> in order, cuts off a torn or corrupt tail (never acknowledged: an acknowledgement
    /// waits for the whole record), and compacts at once when the log is mostly dead records. Every write and fsync
    /// goes through <paramref name="storage"/>, the seam where tests and chaos runs inject a full disk.</summary>
    public static MutationLog Open(string directory, DurabilityMode durability, TimeSpan flushInterval, long compactionThreshold,
        Action<List<Mutation>> apply, Func<IEnumerable<byte[]>> snapshot, Func<long> liveBytes, ILogger logger, LogStorage storage)
    {
        ArgumentNullException.ThrowIfNull(storage);
        ArgumentNullException.ThrowIfNull(apply);
        Directory.CreateDirectory(directory);
        var path = Path.Combine(directory, FileName);

        // A compaction interrupted before its rename leaves only a temporary file: the log itself is intact.
        File.Delete(path + ".compacting");
        var file = File.OpenHandle(path, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.Read, FileOptions.None);
        try
        {
            var (valid, records) = Replay(file, path, apply);
            var length = RandomAccess.GetLength(file);
            if (valid < LogFormat.FileHeaderSize)
            {
                RandomAccess.SetLength(file, 0);
                storage.Write(file, LogFormat.FileHeader(), 0);
                storage.Flush(file);
                valid = LogFormat.FileHeaderSize;
            }
            else if (valid < length)
            {
                RandomAccess.SetLength(file, valid);
                storage.Flush(file);
                StorageLog.TornTailTruncated(logger, path, valid, length - valid);
            }

            StorageLog.Recovered(logger, path, records, valid);
            var log = new MutationLog(path, file, valid, durability, flushInterval, compactionThreshold, snapshot, liveBytes, logger, storage);
            if (valid > compactionThreshold && valid > 2 * liveBytes())
            {
                log._queue.Writer.TryWrite(Pending.Flush);
            }

            return log;
        }
        catch
        {
            file.Dispose();
            throw;
        }
    }

    /// <summary>Applies every intact record; returns the length of the intact prefix and the record count.</summary>
    private static (long Valid, long Records) Replay(Microsoft.Win32.SafeHandles.SafeFileHandle file, string path, Action<List<Mutation>> apply)
    {
        var length = RandomAccess.GetLength(file);
        if (length == 0)
        {
            return (0, 0);
        }

        // Read through the handle (a FileStream would close it); records are read at their offsets.
        var header = new byte[LogFormat.RecordHeaderSize];
        if (!ReadAt(file, header.AsSpan(0, LogFormat.FileHeaderSize), 0) || !LogFormat.IsFileHeader(header))
        {
            throw new InvalidDataException($"{path} is not a Cosmos DB emulator log (unknown header); move it away to start empty.");
        }

        long valid = LogFormat.FileHeaderSize, records = 0;
        var payload = new byte[64 * 1024];
        var mutations = new List<Mutation>();
        while (ReadAt(file, header, valid))
        {
            var payloadLength = LogFormat.PayloadLength(header);
            if (payloadLength < 0 || valid + LogFormat.RecordHeaderSize + payloadLength > length)
            {
                break;
            }

            if (payload.Length < payloadLength)
            {
                payload = new byte[Math.Max(payloadLength, payload.Length * 2)];
            }

            var span = payload.AsSpan(0, payloadLength);
            if (!ReadAt(file, span, valid + LogFormat.RecordHeaderSize) || !LogFormat.CrcMatches(header, span))
            {
                break;
            }

            mutations.Clear();
            MutationCodec.Decode(span, mutations);
            apply(mutations);
            valid += LogFormat.RecordHeaderSize + payloadLength;
            records++;
        }

        return (valid, records);
    }

    private static bool ReadAt(Microsoft.Win32.SafeHandles.SafeFileHandle file, Span<byte> destination, long offset)
    {
        var total = 0;
        while (total < destination.Length)
        {
            var read = RandomAccess.Read(file, destination[total..], offset + total);
            if (read == 0)
            {
                return false;
            }

            total += read;
        }

        return true;
    }

    /// <summary>When the log has passed the threshold and is mostly dead records — and, after a compaction that failed,
    /// has grown by another threshold since.</summary>
    private bool ShouldCompact() =>
        _length > _compactionThreshold && _length >= _compactionRetryAt && _length > 2 * _liveBytes();

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
            var header = LogFormat.FileHeader();
            _storage.Write(file, header, 0);
            length = header.Length;
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
            _storage.Flush(file);
        }

        return length;
    }

    private void SwapIn(string temporary, long length)
    {
        var before = _length;
        File.Move(temporary, _path, overwrite: true);
        var reopened = File.OpenHandle(_path, FileMode.Open, FileAccess.ReadWrite, FileShare.Read);
        _file.Dispose();
        _file = reopened;
        Interlocked.Exchange(ref _length, length);
        _dirty = false;
        Compactions++;
        StorageLog.Compacted(_logger, _path, before, length);
    }
}
