using System.Collections.Concurrent;
using SensorPipeline.FunctionsHost.Checkpoints;

namespace SensorPipeline.FunctionsHost.Processing;

/// <summary>The blob checkpoints as this host last read or wrote them, for status and the stall detector (which never
/// wait on Storage). A write below the recorded sequence number is a rewind: another instance had checkpointed the
/// partition further after it moved (a checkpoint write is not conditioned on ownership).</summary>
internal sealed class BlobCheckpoints : ICheckpointView
{
    private readonly ConcurrentDictionary<CheckpointKey, Checkpoint> _seen = new();
    private long _rewinds;

    public long Rewinds => Interlocked.Read(ref _rewinds);

    public Checkpoint? Peek(CheckpointKey key) => _seen.TryGetValue(key, out var checkpoint) ? checkpoint : null;

    /// <summary>Records a checkpoint read from its blob or written to it.</summary>
    public void Record(CheckpointKey key, StoredCheckpoint stored, bool written = false)
    {
        var checkpoint = new Checkpoint(stored.SequenceNumber, stored.Offset, stored.LastModified);
        _seen.AddOrUpdate(key, checkpoint, (_, previous) =>
        {
            if (written && stored.SequenceNumber < previous.SequenceNumber)
            {
                Interlocked.Increment(ref _rewinds);
            }

            return checkpoint;
        });
    }
}
