namespace SensorPipeline.FunctionsHost.Ownership;

/// <summary>Partition ownership records shared by every instance of a function — the local stand-in for the blob
/// container the Event Hubs processor keeps ownership in. Writes are compare-and-swap on the record's version, so
/// of several instances claiming one partition at once exactly one succeeds.</summary>
public interface IOwnershipStore
{
    /// <summary>Every record of the scope, expired and relinquished ones included (a claim needs their versions).</summary>
    Task<IReadOnlyList<PartitionOwnership>> ListAsync(OwnershipScope scope, CancellationToken cancellationToken);

    /// <summary>Writes the claim with last-modified = now if the stored version is still the expected one; returns the
    /// new record, or null when another instance wrote first (the claim is lost, nothing is written).</summary>
    Task<PartitionOwnership?> TryClaimAsync(OwnershipScope scope, OwnershipClaim claim, CancellationToken cancellationToken);
}
