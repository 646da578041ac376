using System.Collections.Concurrent;
using SensorPipeline.FunctionsHost.Config;
using SensorPipeline.FunctionsHost.Ownership;

namespace SensorPipeline.FunctionsHost.Status;

/// <summary>Live counters and the pause gate of one function, shared by its partition listeners.</summary>
internal sealed class FunctionState(FunctionDefinition definition)
{
    private long _succeeded;
    private long _failed;
    private long _retried;
    private readonly ConcurrentDictionary<string, PartitionHealth> _health = new(StringComparer.Ordinal);

    public FunctionDefinition Definition { get; } = definition;

    public PauseGate Pause { get; } = new();

    public InvocationExtremes Largest { get; } = new();

    /// <summary>The partitions this host listens on: all of them for a single instance, else what its ownership loop
    /// holds.</summary>
    public OwnedPartitions Owned { get; } = new();

    /// <summary>The ownership loop of an instance among several; null for a single instance or an observer.</summary>
    public OwnershipLoop? Ownership { get; set; }

    public long Succeeded => Interlocked.Read(ref _succeeded);

    public long Failed => Interlocked.Read(ref _failed);

    public long Retried => Interlocked.Read(ref _retried);

    public void CountSucceeded() => Interlocked.Increment(ref _succeeded);

    public void CountFailed() => Interlocked.Increment(ref _failed);

    public void CountRetried() => Interlocked.Increment(ref _retried);

    /// <summary>Retention gaps and stall verdict of one partition; kept across host generations.</summary>
    public PartitionHealth Health(string partitionId) => _health.GetOrAdd(partitionId, static _ => new PartitionHealth());
}
