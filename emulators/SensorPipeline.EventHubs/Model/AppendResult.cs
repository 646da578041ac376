namespace SensorPipeline.EventHubs;

/// <summary>Where an appended batch landed: one partition, consecutive sequence numbers.</summary>
public sealed record AppendResult(string PartitionId, long FirstSequenceNumber, long LastSequenceNumber);
