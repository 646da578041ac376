using System.Globalization;
using Microsoft.Extensions.Logging;
using SensorPipeline.FunctionsHost.Config;

namespace SensorPipeline.FunctionsHost.Ownership;

/// <summary>How an instance picks its next cycle's time (the SDK's <c>LoadBalancingStrategy</c>).</summary>
public enum LoadBalancingStrategy
{
    /// <summary>Every cycle waits for the update interval.</summary>
    Balanced,

    /// <summary>A cycle that claimed a partition is followed at once by the next, until a cycle claims nothing — what
    /// the Functions extension configures (EventHubOptions sets <c>LoadBalancingStrategy.Greedy</c>).</summary>
    Greedy,
}

/// <summary>One function's ownership in one instance, as the Event Hubs processor runs it: every
/// LoadBalancingUpdateInterval one <see cref="PartitionOwner"/> cycle (renew, list, claim at most one), the result
/// published to <see cref="Owned"/> for the listener supervisor. A failing cycle keeps the held partitions only while
/// their records cannot have expired; after that this instance stops listening on them, since others may have claimed
/// them.</summary>
internal sealed class OwnershipLoop(
    FunctionDefinition function,
    int partitionCount,
    EventHubsHostSettings settings,
    LoadBalancingStrategy strategy,
    IOwnershipStore store,
    string instanceId,
    OwnedPartitions owned,
    TimeProvider time,
    ILogger logger)
{
    private readonly PartitionOwner _owner = new(
        store,
        new OwnershipScope(function.Trigger.EventHubName, function.Trigger.ConsumerGroup),
        instanceId,
        new PartitionLoadBalancer(settings.PartitionOwnershipExpirationInterval, time));

    private readonly string[] _partitionIds = Enumerable.Range(0, partitionCount).Select(p => p.ToString(CultureInfo.InvariantCulture)).ToArray();

    public OwnedPartitions Owned => owned;

    public string InstanceId => instanceId;

    public async Task RunAsync(CancellationToken stopping)
    {
        var lastSuccess = time.GetUtcNow();
        try
        {
            while (!stopping.IsCancellationRequested)
            {
                var started = time.GetTimestamp();
                var balanced = true;
                try
                {
                    await _owner.RunCycleAsync(_partitionIds, stopping);
                    lastSuccess = time.GetUtcNow();
                    balanced = _owner.IsBalanced;
                    Publish(_owner.Owned, _owner.LastRecords);
                }
                catch (Exception ex) when (ex is not OperationCanceledException)
                {
                    FunctionsHostLog.OwnershipCycleFailed(logger, ex, function.Name, instanceId);
                    if (time.GetUtcNow() - lastSuccess >= settings.PartitionOwnershipExpirationInterval)
                    {
                        Publish([], null);
                    }
                }

                var delay = strategy == LoadBalancingStrategy.Greedy && !balanced
                    ? TimeSpan.Zero
                    : settings.LoadBalancingUpdateInterval - time.GetElapsedTime(started);
                if (delay > TimeSpan.Zero)
                {
                    await Task.Delay(delay, time, stopping);
                }
            }
        }
        catch (OperationCanceledException) when (stopping.IsCancellationRequested)
        {
            // Stopping: the host relinquishes after its listeners have finished (RelinquishAsync).
        }
    }

    /// <summary>Gives every held partition up (owner emptied, as the processor does on stop) so other instances take
    /// them at their next cycle instead of after the expiration. Call once the listeners have stopped.</summary>
    public async Task RelinquishAsync(CancellationToken cancellationToken)
    {
        Publish([], null);
        await _owner.RelinquishAsync(cancellationToken);
    }

    private void Publish(IEnumerable<string> owned, IReadOnlyList<PartitionOwnership>? records)
    {
        var (gained, lost) = Owned.Set(owned, records);
        if ((gained.Count > 0 || lost.Count > 0) && logger.IsEnabled(LogLevel.Information))
        {
            var current = Owned.Current.Order(StringComparer.Ordinal).ToList();
            var (now, added, removed) = (string.Join(',', current), string.Join(',', gained), string.Join(',', lost));
            FunctionsHostLog.OwnershipChanged(logger, instanceId, function.Name, function.Trigger.EventHubName, function.Trigger.ConsumerGroup,
                current.Count, now, added, removed);
        }
    }
}
