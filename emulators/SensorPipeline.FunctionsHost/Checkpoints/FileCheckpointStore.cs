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
/// when the slot files are created. In one instance one listener owns each partition, so writes to one key never race.
/// With several instances (<c>sharedWriters</c>) a partition's old owner may still checkpoint its last batch after
/// the new owner started — as in Azure, where a checkpoint write is not conditioned on ownership — so each write first
/// reads the newest slot on disk: the next generation follows it (a stale cached generation would overwrite the newer
/// slot), and a write below the stored sequence number is a <em>rewind</em>, counted and logged.</summary>
public sealed class FileCheckpointStore : ICheckpointView
{
    private readonly string _root;
    private readonly TimeProvider _time;
    private readonly bool _fsync;
    private readonly ILogger _logger;
    private const string Extension = "checkpoint";
    private readonly ConcurrentDictionary<CheckpointKey, (Checkpoint Checkpoint, long Generation)> _cache = new();
    private readonly bool _sharedWriters;
    private long _rewinds;

    /// <param name="sharedWriters">True when other processes may write the same keys (several instances).</param>
    public FileCheckpointStore(string dataDirectory, TimeProvider time, bool fsync = true, ILogger? logger = null, bool sharedWriters = false)
    {
        _sharedWriters = sharedWriters;
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

    /// <summary>Checkpoint writes by this process that moved a partition's checkpoint backwards (shared writers only).</summary>
    public long Rewinds => Interlocked.Read(ref _rewinds);

    public async Task<Checkpoint> WriteAsync(CheckpointKey key, long sequenceNumber, long offset, CancellationToken cancellationToken)
    {
        var checkpoint = new Checkpoint(sequenceNumber, offset, _time.GetUtcNow());
        var generation = _cache.TryGetValue(key, out var previous) ? previous.Generation + 1 : 1;
        if (_sharedWriters
            && (await SlotFile.ReadNewestAsync(KeyDirectory(key), key.PartitionId, Extension, cancellationToken)).Newest is { } storedFields
            && Parse(storedFields) is { } stored)
        {
            generation = Math.Max(generation, stored.Item2 + 1);
            if (sequenceNumber < stored.Item1.SequenceNumber)
            {
                Interlocked.Increment(ref _rewinds);
                FunctionsHostLog.CheckpointRewound(_logger, key.Hub, key.ConsumerGroup, key.PartitionId, stored.Item1.SequenceNumber, sequenceNumber);
            }
        }

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
