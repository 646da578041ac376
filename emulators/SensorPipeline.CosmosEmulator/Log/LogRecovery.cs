using SensorPipeline.Emulators.Common;

namespace SensorPipeline.CosmosEmulator.Log;

/// <summary>What <see cref="MutationLog.Open"/> does before the log takes writes: replays every intact record, cuts a
/// torn tail past the durable mark, and refuses — naming the file and the byte — damage before it or another format
/// version.</summary>
internal static class LogRecovery
{
    /// <summary>What replay found: the intact prefix, its records, the header's size and durable mark (if any).</summary>
    public readonly record struct Replayed(long Valid, long Records, int HeaderSize, long? DurableMark);

    /// <summary>Makes the file what replay kept: a new file gets its header (and its directory entry made durable), a
    /// torn tail past the durable mark is cut; damage before the mark refuses the start. Returns the log's length.</summary>
    public static long Recover(Microsoft.Win32.SafeHandles.SafeFileHandle file, string path, Replayed replayed, LogStorage storage, ILogger logger)
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
    public static Replayed Replay(Microsoft.Win32.SafeHandles.SafeFileHandle file, string path, Action<List<Mutation>> apply)
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
