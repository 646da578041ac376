using SensorPipeline.CosmosEmulator.Charging;

namespace SensorPipeline.CosmosEmulator.Documents;

/// <summary>The container's indexing policy and what its operations cost (see <see cref="RequestCharge"/>): every charge
/// is taken from <see cref="Budget"/> and totalled in <see cref="Ledger"/>.</summary>
internal sealed partial class ContainerState
{
    public IndexingPolicy Policy { get; private set; } = IndexingPolicy.Default;

    public ChargeLedger Ledger { get; } = new();

    /// <summary>Takes <paramref name="requestUnits"/> from the budget and records them under <paramref name="operation"/>.</summary>
    public void Charge(ChargedOperation operation, double requestUnits)
    {
        Budget.Charge(requestUnits);
        Ledger.Add(operation, requestUnits);
    }

    /// <summary>The charge of storing <paramref name="written"/> over <paramref name="previous"/> (none: a create), and
    /// which operation that was.</summary>
    public (ChargedOperation Operation, double RequestUnits) WriteCharge(StoredDocument written, StoredDocument? previous, bool patch)
    {
        ArgumentNullException.ThrowIfNull(written);
        if (previous is null)
        {
            return (ChargedOperation.Create, RequestCharge.Create(written.Json.Length, IndexTerms.Count(written.Json, Policy)));
        }

        var changes = IndexTerms.Compare(previous.Json, written.Json, Policy);
        return patch
            ? (ChargedOperation.Patch, RequestCharge.Patch(previous.Json.Length, written.Json.Length, changes))
            : (ChargedOperation.Replace, RequestCharge.Replace(previous.Json.Length, written.Json.Length, changes));
    }

    /// <summary>The charge of deleting <paramref name="deleted"/> (by request or by TTL).</summary>
    public double DeleteCharge(StoredDocument deleted)
    {
        ArgumentNullException.ThrowIfNull(deleted);
        return RequestCharge.Delete(deleted.Json.Length, IndexTerms.Count(deleted.Json, Policy));
    }

    private void ReadIndexingPolicy(JsonElement resource) => Policy = IndexingPolicy.From(resource);
}
