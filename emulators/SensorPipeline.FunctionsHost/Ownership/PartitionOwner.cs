namespace SensorPipeline.FunctionsHost.Ownership;

/// <summary>One instance's side of partition balancing for one hub / consumer group, run once per load-balancing
/// interval as the Event Hubs processor does: renew every record this instance holds (a renewal that loses its
/// compare-and-swap means another instance took the partition), list all records, and make at most one claim chosen by
/// <see cref="PartitionLoadBalancer"/>. Not thread-safe: one loop drives it.</summary>
public sealed class PartitionOwner
{
    private readonly IOwnershipStore _store;
    private readonly OwnershipScope _scope;
    private readonly PartitionLoadBalancer _balancer;
    private Dictionary<string, PartitionOwnership> _owned = new(StringComparer.Ordinal);

    public PartitionOwner(IOwnershipStore store, OwnershipScope scope, string ownerId, PartitionLoadBalancer balancer)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(ownerId);
        _store = store;
        _scope = scope;
        OwnerId = ownerId;
        _balancer = balancer;
    }

    public string OwnerId { get; }

    /// <summary>The partitions this instance held after its last cycle.</summary>
    public IReadOnlyCollection<string> Owned => _owned.Keys;

    /// <summary>False when the last cycle claimed a partition: the SDK's <c>IsBalanced</c>, which the greedy strategy
    /// uses to run the next cycle at once.</summary>
    public bool IsBalanced { get; private set; }

    /// <summary>Every record of the scope as the last cycle listed it (before its claim).</summary>
    public IReadOnlyList<PartitionOwnership> LastRecords { get; private set; } = [];

    /// <summary>One balancing cycle; returns the partitions this instance owns after it.</summary>
    public async Task<IReadOnlyCollection<string>> RunCycleAsync(IReadOnlyList<string> partitionIds, CancellationToken cancellationToken)
    {
        var renewed = new Dictionary<string, PartitionOwnership>(StringComparer.Ordinal);
        foreach (var held in _owned.Values)
        {
            if (await _store.TryClaimAsync(_scope, new OwnershipClaim(held.PartitionId, OwnerId, held.Version), cancellationToken) is { } record)
            {
                renewed[record.PartitionId] = record;
            }
        }

        _owned = renewed;
        var records = await _store.ListAsync(_scope, cancellationToken);
        LastRecords = records;
        IsBalanced = true;
        if (_balancer.FindClaim(records, partitionIds, OwnerId) is { } claim
            && await _store.TryClaimAsync(_scope, claim, cancellationToken) is { } claimed)
        {
            _owned[claimed.PartitionId] = claimed;
            IsBalanced = false;
        }

        return _owned.Keys;
    }

    /// <summary>Gives up every held partition (owner id emptied, as the SDK does on stop) so others claim them at once
    /// rather than after the expiration.</summary>
    public async Task RelinquishAsync(CancellationToken cancellationToken)
    {
        foreach (var held in _owned.Values)
        {
            await _store.TryClaimAsync(_scope, new OwnershipClaim(held.PartitionId, string.Empty, held.Version), cancellationToken);
        }

        _owned.Clear();
    }
}
