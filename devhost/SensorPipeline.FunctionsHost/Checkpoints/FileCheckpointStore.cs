using System.Collections.Concurrent;
using System.Globalization;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;

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
    private const string Extension = "checkpoint";
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
        var (fields, damaged) = await SlotFile.ReadNewestAsync(KeyDirectory(key), key.PartitionId, Extension, cancellationToken);
        (Checkpoint Checkpoint, long Generation)? newest = fields is null ? null : Parse(fields);
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
        var generation = _cache.TryGetValue(key, out var previous) ? previous.Generation + 1 : 1;
        var fields = string.Create(CultureInfo.InvariantCulture, $"{checkpoint.SequenceNumber} {checkpoint.Offset} {checkpoint.LastModified:O}");
        await SlotFile.WriteAsync(KeyDirectory(key), key.PartitionId, Extension, generation, fields, _fsync, cancellationToken);
        _cache[key] = (checkpoint, generation);
        return checkpoint;
    }

    // Slot fields: "{generation} {sequenceNumber} {offset} {lastModified:O}".
    private static (Checkpoint, long)? Parse(string[] fields) =>
        fields.Length != 4 ? null : (new Checkpoint(
            long.Parse(fields[1], CultureInfo.InvariantCulture),
            long.Parse(fields[2], CultureInfo.InvariantCulture),
            DateTimeOffset.Parse(fields[3], CultureInfo.InvariantCulture, DateTimeStyles.RoundtripKind)), long.Parse(fields[0], CultureInfo.InvariantCulture));

    private string KeyDirectory(CheckpointKey key) => Path.Combine(_root, SlotFile.Safe(key.Hub), SlotFile.Safe(key.ConsumerGroup));

    private string SlotPath(CheckpointKey key, int slot) => SlotFile.SlotPath(KeyDirectory(key), key.PartitionId, slot, Extension);
}
