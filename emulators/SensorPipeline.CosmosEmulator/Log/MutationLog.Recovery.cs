using SensorPipeline.Emulators.Common;

namespace SensorPipeline.CosmosEmulator.Log;

internal sealed partial class MutationLog
{
    /// <summary>Opens (or creates) the log in <paramref name="directory"/>, replays every intact record through
    /// <paramref name="apply"/> in order, cuts off a torn tail past the durable mark (never acknowledged: an
    /// acknowledgement waits for the whole record), refuses to start — naming the file and the byte — when a record
    /// before the mark is damaged, refuses a log of another format version, and compacts at once when the log is mostly
    /// dead records. Every write and fsync goes through <paramref name="storage"/>, the seam where tests and chaos runs
    /// inject a full disk.</summary>
    public static MutationLog Open(string directory, DurabilityMode durability, TimeSpan flushInterval, long compactionThreshold,
        Action<List<Mutation>> apply, Func<IEnumerable<byte[]>> snapshot, Func<long> liveBytes, ILogger logger, LogStorage storage)
    {
        ArgumentNullException.ThrowIfNull(storage);
        ArgumentNullException.ThrowIfNull(apply);
        storage.CreateDirectory(directory, durable: durability != DurabilityMode.None);
        var path = Path.Combine(directory, FileName);

        // A compaction interrupted before its rename leaves only a temporary file: the log itself is intact.
        File.Delete(path + ".compacting");
        var file = File.OpenHandle(path, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.Read, FileOptions.None);
        try
        {
            var replayed = Replay(file, path, apply);
            var valid = Recover(file, path, replayed, storage, logger);
            StorageLog.Recovered(logger, path, replayed.Records, valid);
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

    /// <summary>What replay found: the intact prefix, its records, the header's size and durable mark (if any).</summary>
    private readonly record struct Replayed(long Valid, long Records, int HeaderSize, long? DurableMark);

    /// <summary>Makes the file what replay kept: a new file gets its header (and its directory entry made durable), a
    /// torn tail past the durable mark is cut; damage before the mark refuses the start. Returns the log's length.</summary>
    private static long Recover(Microsoft.Win32.SafeHandles.SafeFileHandle file, string path, Replayed replayed, LogStorage storage, ILogger logger)
    {
        var length = RandomAccess.GetLength(file);
        if (replayed.HeaderSize == 0)
        {
            RandomAccess.SetLength(file, 0);
            storage.Write(file, LogFormat.FileHeader(), 0);
            storage.Flush(file);
            storage.FlushDirectory(Path.GetDirectoryName(path)!);
            return LogFormat.FileHeaderSize;
        }

        if (DurableLogFormat.TornTailToCut(path, replayed.Valid, length, replayed.DurableMark, "acknowledged writes",
            "Restore the file from a copy, or move it away to start the emulator empty."))
        {
            RandomAccess.SetLength(file, replayed.Valid);
            storage.Flush(file);
            StorageLog.TornTailTruncated(logger, path, replayed.Valid, length - replayed.Valid);
        }

        return replayed.Valid;
    }

    /// <summary>Applies every intact record after the header. A new (empty) file, or one whose header never
    /// reached the disk whole, has no header yet (HeaderSize 0).</summary>
    private static Replayed Replay(Microsoft.Win32.SafeHandles.SafeFileHandle file, string path, Action<List<Mutation>> apply)
    {
        var length = RandomAccess.GetLength(file);
        if (length == 0)
        {
            return new Replayed(0, 0, 0, null);
        }

        // Read through the handle (a FileStream would close it); records are read at their offsets.
        var header = new byte[LogFormat.FileHeaderSize];
        var version = ReadAt(file, header.AsSpan(0, DurableLogFormat.VersionPrefixSize), 0) ? DurableLogFormat.VersionOf(header, LogFormat.Magic) : null;
        if (version is null)
        {
            throw new InvalidDataException($"{path} is not a Cosmos DB emulator log (unknown header); move it away to start empty.");
        }

        if (version != LogFormat.Version)
        {
            throw LogFormat.OtherVersion(path, version.Value);
        }

        if (!ReadAt(file, header, 0))
        {
            return new Replayed(0, 0, 0, null); // a header torn as the file was created: nothing was ever written after it
        }

        var (valid, records) = ReplayRecords(file, path, LogFormat.FileHeaderSize, length, apply);
        return new Replayed(valid, records, LogFormat.FileHeaderSize, DurableLogFormat.DurableMarkOf(header, LogFormat.FileHeaderSize));
    }

    private static (long Valid, long Records) ReplayRecords(Microsoft.Win32.SafeHandles.SafeFileHandle file, string path, long start, long length, Action<List<Mutation>> apply)
    {
        long valid = start, records = 0;
        var header = new byte[DurableLogFormat.RecordHeaderSize];
        var payload = new byte[64 * 1024];
        var mutations = new List<Mutation>();
        while (ReadAt(file, header, valid))
        {
            var payloadLength = LogFormat.PayloadLength(header);
            if (payloadLength < 0 || valid + DurableLogFormat.RecordHeaderSize + payloadLength > length)
            {
                break;
            }

            if (payload.Length < payloadLength)
            {
                payload = new byte[Math.Max(payloadLength, payload.Length * 2)];
            }

            var span = payload.AsSpan(0, payloadLength);
            if (!ReadAt(file, span, valid + DurableLogFormat.RecordHeaderSize) || !DurableLogFormat.CrcMatches(header, span))
            {
                break;
            }

            // A record whose fields do not add up is damaged like one whose CRC fails: cut past the durable mark,
            // the start refused before it.
            mutations.Clear();
            if (!MutationCodec.TryDecode(span, mutations))
            {
                break;
            }

            try
            {
                apply(mutations);
            }
            catch (InvalidDataException e)
            {
                // Intact by its CRC, so not a torn write, and partly applied already: the start is refused.
                throw new InvalidDataException(
                    $"{path}: the record at byte {valid} cannot be replayed: {e.Message}. Restore the file from a copy, or move it away to start the emulator empty.", e);
            }

            valid += DurableLogFormat.RecordHeaderSize + payloadLength;
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
}
