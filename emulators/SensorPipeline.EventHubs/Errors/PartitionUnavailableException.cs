namespace SensorPipeline.EventHubs;

/// <summary>The partition could not store the batch because its storage failed (a full disk, an I/O error): nothing of
/// the batch was acknowledged, and the partition is expected to accept it again once the storage recovers (HTTP 503
/// with <c>Retry-After</c>, as Event Hubs answers when it is busy).</summary>
public sealed class PartitionUnavailableException : Exception
{
    public PartitionUnavailableException() { }
    public PartitionUnavailableException(string message) : base(message) { }
    public PartitionUnavailableException(string message, Exception innerException) : base(message, innerException) { }

    /// <summary>How long a client should wait before sending again.</summary>
    public static readonly TimeSpan RetryAfter = TimeSpan.FromSeconds(1);

    public static PartitionUnavailableException For(string hub, string partitionId, Exception cause) =>
        new($"Partition {hub}/{partitionId} could not store the batch ({cause.Message}); nothing was acknowledged. Retry after {RetryAfter.TotalSeconds:0} s.", cause);
}
