namespace SensorPipeline.FunctionsHost.Ownership;

/// <summary>Decides, from every ownership record, which single partition this owner should claim next — the Event
/// Hubs processor's balancing (azure-sdk-for-net <c>PartitionLoadBalancer</c>): active owners are those with a record
/// renewed within the expiration; with P partitions and N active owners (this one included) every owner should hold
/// min = P / N or max = min + 1. An owner below min, or at min when no owner is below it, claims an unowned or
/// expired partition first; failing that it steals from an owner above max; failing that, only if it is itself below
/// min, from an owner at exactly max. So a difference of one partition between owners never moves anything. One
/// claim per cycle; ties are broken at random, as the SDK does, so owners racing for the same partition spread.</summary>
public sealed class PartitionLoadBalancer
{
    private readonly TimeSpan _expiration;
    private readonly TimeProvider _time;
    private readonly Random _random;

    /// <param name="ownershipExpiration">How long a record counts as owned without renewal.</param>
    /// <param name="time">The clock records are judged by.</param>
    /// <param name="random">Picks among equally good candidates (default <see cref="Random.Shared"/>).</param>
    public PartitionLoadBalancer(TimeSpan ownershipExpiration, TimeProvider time, Random? random = null)
    {
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(ownershipExpiration, TimeSpan.Zero);
        _expiration = ownershipExpiration;
        _time = time;
        _random = random ?? Random.Shared;
    }

    /// <summary>The partitions <paramref name="ownerId"/> holds by active records.</summary>
    public IReadOnlyList<PartitionOwnership> ActiveOwnedBy(IEnumerable<PartitionOwnership> records, string ownerId)
    {
        var now = _time.GetUtcNow();
        return records.Where(r => r.OwnerId == ownerId && r.IsActive(now, _expiration)).ToList();
    }

    /// <summary>The claim this owner should make now, or null when the distribution needs nothing from it.</summary>
    /// <param name="records">Every record of the scope, expired ones included (a claim needs their version).</param>
    /// <param name="partitionIds">All partitions of the hub.</param>
    /// <param name="ownerId">This owner.</param>
    public OwnershipClaim? FindClaim(IReadOnlyList<PartitionOwnership> records, IReadOnlyList<string> partitionIds, string ownerId)
    {
        var now = _time.GetUtcNow();
        var known = new HashSet<string>(partitionIds, StringComparer.Ordinal);
        var byPartition = records.Where(r => known.Contains(r.PartitionId)).ToDictionary(r => r.PartitionId, StringComparer.Ordinal);
        var owners = new Dictionary<string, List<string>>(StringComparer.Ordinal) { [ownerId] = [] };
        foreach (var record in byPartition.Values.Where(r => r.IsActive(now, _expiration)))
        {
            (owners.TryGetValue(record.OwnerId, out var owned) ? owned : owners[record.OwnerId] = []).Add(record.PartitionId);
        }

        var min = partitionIds.Count / owners.Count;
        var max = min + 1;
        var mine = owners[ownerId].Count;
        var eligible = mine < min || (mine == min && !owners.Values.Any(owned => owned.Count < min));
        if (!eligible)
        {
            return null;
        }

        var unowned = partitionIds.Where(id => !byPartition.TryGetValue(id, out var r) || !r.IsActive(now, _expiration)).ToList();
        if (unowned.Count > 0)
        {
            return ClaimOf(Pick(unowned));
        }

        var aboveMax = owners.Where(o => o.Key != ownerId && o.Value.Count > max).SelectMany(o => o.Value).ToList();
        if (aboveMax.Count > 0)
        {
            return ClaimOf(Pick(aboveMax));
        }

        var atMax = owners.Where(o => o.Key != ownerId && o.Value.Count == max).SelectMany(o => o.Value).ToList();
        return mine < min && atMax.Count > 0 ? ClaimOf(Pick(atMax)) : null;

        OwnershipClaim ClaimOf(string partitionId) =>
            new(partitionId, ownerId, byPartition.TryGetValue(partitionId, out var current) ? current.Version : 0);
    }

    private string Pick(List<string> candidates) => candidates[_random.Next(candidates.Count)];
}
