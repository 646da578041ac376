namespace SensorPipeline.FunctionsHost.Checkpoints;

/// <summary>The checkpoints status and the stall detector look at: the last one this host read or wrote per partition,
/// without I/O, and how many writes moved one backwards.</summary>
public interface ICheckpointView
{
    /// <summary>The last checkpoint seen for <paramref name="key"/>; null when none.</summary>
    Checkpoint? Peek(CheckpointKey key);

    /// <summary>Checkpoint writes that moved a checkpoint backwards.</summary>
    long Rewinds { get; }
}
