namespace SensorPipeline.EventHubs;

/// <summary>The event hub has no partition of that id (HTTP 404).</summary>
public sealed class PartitionNotFoundException : Exception
{
    public PartitionNotFoundException() { }
    public PartitionNotFoundException(string message) : base(message) { }
    public PartitionNotFoundException(string message, Exception innerException) : base(message, innerException) { }

    public static PartitionNotFoundException For(string hub, string partitionId, int partitionCount) =>
        new($"Event hub '{hub}' has no partition '{partitionId}' (it has partitions 0 to {partitionCount - 1}).") { Hub = hub, PartitionId = partitionId, PartitionCount = partitionCount };

    public string? Hub { get; private init; }

    public string? PartitionId { get; private init; }

    /// <summary>How many partitions the hub has (ids 0 to this − 1).</summary>
    public int PartitionCount { get; private init; }
}
