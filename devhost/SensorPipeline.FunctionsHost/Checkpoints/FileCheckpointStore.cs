using System.Collections.Concurrent;
using System.Globalization;
using System.Security.Cryptography;
using System.Text;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;
using SensorPipeline.DevHost.Common;

namespace SensorPipeline.FunctionsHost.Checkpoints;

/// <summary>Checkpoints on disk — the local stand-in for the extension's blob checkpoint store. Each hub / consumer
/// group / partition has two slot files, <c>{partition}.0.checkpoint</c> and <c>{partition}.1.checkpoint</c>, written
/// alternately in place: a write that is torn by a crash damages only the slot being written, and its checksum shows
/// it, so reading takes the newest intact slot — the previous checkpoint at worst (redelivery, never loss). In-place
/// writes avoid rename-over-existing, which ext4 turns into a synchronous data flush (~1.7 ms here even without
/// fsync). With fsync on, each write is flushed to disk before the listener moves on; the directory is fsynced once,
/// when the slot files are created. One listener owns each partition, so writes to one key never race.</summary>
public sealed class FileCheckpointStore
{
    private readonly string _root;
    private readonly TimeProvider _time;
    private readonly bool _fsync;
    private readonly ILogger _logger;
    private readonly ConcurrentDictionary<CheckpointKey, (Checkpoint Checkpoint, long Generation)> _cache = new();

    public FileCheckpointStore(string dataDirectory, TimeProvider time, bool fsync = true, ILogger? logger = null)
    {
        _logger = logger ?? NullLogger.Instance;
        _root = Path.Combine(Path.GetFullPath(dataDirectory), "checkpoints");
        _time = time;
        _fsync = fsync;
    }

    /// <summary>The last checkpoint this process read or wrote (for /status).</summary>
    public Checkpoint? Peek(CheckpointKey key) => _cache.TryGetValue(key, out var entry) ? entry.Checkpoint : null;

    public async Task<Checkpoint?> ReadAsync(CheckpointKey key, CancellationToken cancellationToken)
    {
        (Checkpoint Checkpoint, long Generation)? newest = null;
        int damaged = 0;
        for (int slot = 0; slot < 2; slot++)
        {
            string path = SlotPath(key, slot);
            if (!File.Exists(path))
            {
                continue;
            }

            string text = await File.ReadAllTextAsync(path, cancellationToken);
            if (TryParse(text, out Checkpoint? checkpoint, out long generation))
            {
                if (newest is null || generation > newest.Value.Generation)
                {
                    newest = (checkpoint!, generation);
                }
            }
            else
            {
                damaged++;
            }
        }

        if (newest is null && damaged > 1)
        {
            // Two damaged slots cannot come from one torn write: refuse rather than silently restart from the beginning.
            throw new InvalidDataException($"{SlotPath(key, 0)} (and slot 1): no intact checkpoint; delete them to restart from initialOffsetOptions");
        }

        if (newest is null && damaged == 1)
        {
            // The very first write was torn: there never was an intact checkpoint to fall back to, so this is "no
            // checkpoint" (the listener starts per initialOffsetOptions, redelivering at worst) — not a reason to fail
            // every start. The next write goes to the same slot and replaces the damaged bytes.
            FunctionsHostLog.TornFirstCheckpoint(_logger, key.Hub, key.ConsumerGroup, key.PartitionId);
        }

        if (newest is { } found)
        {
            _cache[key] = found;
        }

        return newest?.Checkpoint;
    }

    public async Task<Checkpoint> WriteAsync(CheckpointKey key, long sequenceNumber, long offset, CancellationToken cancellationToken)
    {
        var checkpoint = new Checkpoint(sequenceNumber, offset, _time.GetUtcNow());
        long generation = _cache.TryGetValue(key, out var previous) ? previous.Generation + 1 : 1;
        string path = SlotPath(key, (int)(generation % 2));
        bool created = !File.Exists(path);
        if (created)
        {
            Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        }

        byte[] content = Encoding.ASCII.GetBytes(Format(checkpoint, generation));
        await using (var stream = new FileStream(path, FileMode.OpenOrCreate, FileAccess.Write, FileShare.Read, 1, FileOptions.None))
        {
            await stream.WriteAsync(content, cancellationToken);
            stream.SetLength(content.Length);
            stream.Flush(flushToDisk: _fsync);
        }

        if (created && _fsync)
        {
            DirectorySync.Flush(Path.GetDirectoryName(path)!);
        }

        _cache[key] = (checkpoint, generation);
        return checkpoint;
    }

    // "{generation} {sequenceNumber} {offset} {lastModified:O} {check}\n", check = the first 16 hex digits of SHA-256
    // over the rest: a torn or mixed old/new write does not pass.
    private static string Format(Checkpoint checkpoint, long generation)
    {
        string body = string.Create(CultureInfo.InvariantCulture, $"{generation} {checkpoint.SequenceNumber} {checkpoint.Offset} {checkpoint.LastModified:O}");
        return body + " " + Check(body) + "\n";
    }

    private static bool TryParse(string text, out Checkpoint? checkpoint, out long generation)
    {
        checkpoint = null;
        generation = 0;
        string[] parts = text.TrimEnd('\n').Split(' ');
        if (parts.Length != 5 || parts[4] != Check(string.Join(' ', parts[..4])))
        {
            return false;
        }

        generation = long.Parse(parts[0], CultureInfo.InvariantCulture);
        checkpoint = new Checkpoint(
            long.Parse(parts[1], CultureInfo.InvariantCulture),
            long.Parse(parts[2], CultureInfo.InvariantCulture),
            DateTimeOffset.Parse(parts[3], CultureInfo.InvariantCulture, DateTimeStyles.RoundtripKind));
        return true;
    }

    private static string Check(string body) => Convert.ToHexString(SHA256.HashData(Encoding.ASCII.GetBytes(body)), 0, 8);

    private string SlotPath(CheckpointKey key, int slot) =>
        Path.Combine(_root, Safe(key.Hub), Safe(key.ConsumerGroup), $"{Safe(key.PartitionId)}.{slot.ToString(CultureInfo.InvariantCulture)}.checkpoint");

    // Hub and consumer group names are case-insensitive in Event Hubs; '$Default' is a legal file name.
    private static string Safe(string name) => name.ToLowerInvariant().Replace('/', '_').Replace('\\', '_');
}
