namespace SensorPipeline.FunctionsHost.Status;

/// <summary>Which hub and consumer group a set of ownership records balances (one record per partition).</summary>
public readonly record struct OwnershipScope(string Hub, string ConsumerGroup);

/// <summary>Who owns a partition, as the Event Hubs processor's ownership blob records it: the owner's id (empty when
/// relinquished), when the owner last claimed or renewed it, and a version that changes on every write (the blob's
/// ETag). A record older than the ownership expiration counts as unowned.</summary>
public sealed record PartitionOwnership(string PartitionId, string OwnerId, DateTimeOffset LastModified, long Version)
{
    /// <summary>True when the record names an owner and was renewed within <paramref name="expiration"/> of
    /// <paramref name="now"/>.</summary>
    public bool IsActive(DateTimeOffset now, TimeSpan expiration) => OwnerId.Length > 0 && now - LastModified < expiration;
}

/// <summary>A compare-and-swap write of a partition's record: it succeeds only while the stored version is still
/// <see cref="ExpectedVersion"/> (0 = no record yet). Claiming, renewing and relinquishing are all claims.</summary>
public readonly record struct OwnershipClaim(string PartitionId, string OwnerId, long ExpectedVersion);
