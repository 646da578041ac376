namespace SensorPipeline.FunctionsHost.Checkpoints;

/// <summary>Which partition of which consumer group a checkpoint belongs to.</summary>
public readonly record struct CheckpointKey(string Hub, string ConsumerGroup, string PartitionId);

/// <summary>The last event processed (successfully or not) by a consumer group on a partition; the listener resumes
/// at <see cref="SequenceNumber"/> + 1.</summary>
public sealed record Checkpoint(long SequenceNumber, long Offset, DateTimeOffset LastModified);
