using System.Collections.Concurrent;
using SensorPipeline.FunctionsHost.Config;

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

    /// <summary>The partitions this host's processor holds, and every owner's records as it last listed them.</summary>
    public OwnedPartitions Owned { get; } = new();

    public long Succeeded => Interlocked.Read(ref _succeeded);

    public long Failed => Interlocked.Read(ref _failed);

    public long Retried => Interlocked.Read(ref _retried);

    public void CountSucceeded() => Interlocked.Increment(ref _succeeded);

    public void CountFailed() => Interlocked.Increment(ref _failed);

    public void CountRetried() => Interlocked.Increment(ref _retried);

    /// <summary>Retention gaps and stall verdict of one partition; kept across host generations.</summary>
    public PartitionHealth Health(string partitionId) => _health.GetOrAdd(partitionId, static _ => new PartitionHealth());
}
