namespace SensorPipeline.CosmosEmulator.Documents;

/// <summary>The versions queued for the log and not yet durable: writes are checked against them, readers never see
/// them; the log's writer commits them once durable, or they are dropped (<see cref="PendingWrite"/>).</summary>
internal sealed partial class ContainerState
{
    private readonly Dictionary<(string PartitionKey, string Id), (StoredDocument? Document, object Owner)> _pending = [];
    private int _generation;

    /// <summary>Counts the failed writes in this container: a pending write checked in an older generation may build on
    /// a version a failed write discarded, and must not be written.</summary>
    public int Generation => Volatile.Read(ref _generation);

    /// <summary>The version a write is checked against (caller holds <see cref="Gate"/>): the newest pending one,
    /// else the committed one; null when absent, deleted or expired.</summary>
    public StoredDocument? FindLatest(string partitionKey, string id, long now) =>
        _pending.TryGetValue((partitionKey, id), out var pending)
            ? pending.Document is { } document && !document.IsExpired(DefaultTtl, now) ? document : null
            : Find(partitionKey, id, now);

    /// <summary>Records a version queued for the log (null: a delete), owned by <paramref name="owner"/>, its record's
    /// effect (caller holds <see cref="Gate"/>).</summary>
    public void Stage(string partitionKey, string id, StoredDocument? document, object owner) =>
        _pending[(partitionKey, id)] = (document, owner);

    /// <summary>The record of <paramref name="owner"/> is durable: its version becomes the committed one, and stops
    /// being pending unless a newer write is already queued (caller holds <see cref="Gate"/>).</summary>
    public void Commit(string partitionKey, string id, StoredDocument? document, object owner)
    {
        if (document is null)
        {
            Remove(partitionKey, id);
        }
        else
        {
            Put(partitionKey, id, document);
        }

        Unstage(partitionKey, id, owner);
    }

    /// <summary>Drops the pending version of <paramref name="owner"/>, if it is still the newest (caller holds <see cref="Gate"/>).</summary>
    public void Unstage(string partitionKey, string id, object owner)
    {
        if (_pending.TryGetValue((partitionKey, id), out var pending) && ReferenceEquals(pending.Owner, owner))
        {
            _pending.Remove((partitionKey, id));
        }
    }

    /// <summary>A write failed: every pending version may build on it, so all are dropped and the generation moves on,
    /// which refuses the records still queued (caller holds <see cref="Gate"/>).</summary>
    public void DiscardPending()
    {
        _pending.Clear();
        Interlocked.Increment(ref _generation);
    }
}
