namespace SensorPipeline.CosmosEmulator.Documents;

/// <summary>A container's versions queued for the log and not yet durable: writes are checked against them, readers
/// never see them; the log's writer commits them once durable, or they are dropped (<see cref="PendingWrite"/>). The
/// caller holds the container's gate.</summary>
internal sealed class PendingVersions
{
    private readonly Dictionary<(string PartitionKey, string Id), (StoredDocument? Document, object Owner)> _pending = [];
    private int _generation;

    /// <summary>Counts the failed writes in this container: a pending write checked in an older generation may build on
    /// a version a failed write discarded, and must not be written.</summary>
    public int Generation => Volatile.Read(ref _generation);

    /// <summary>The newest pending version of a document (null inside: a pending delete); false when none is pending.</summary>
    public bool TryGet(string partitionKey, string id, out StoredDocument? document)
    {
        var found = _pending.TryGetValue((partitionKey, id), out var pending);
        document = pending.Document;
        return found;
    }

    /// <summary>Records a version queued for the log (null: a delete), owned by <paramref name="owner"/>, its record's
    /// effect.</summary>
    public void Stage(string partitionKey, string id, StoredDocument? document, object owner) =>
        _pending[(partitionKey, id)] = (document, owner);

    /// <summary>Drops the pending version of <paramref name="owner"/>, if it is still the newest.</summary>
    public void Unstage(string partitionKey, string id, object owner)
    {
        if (_pending.TryGetValue((partitionKey, id), out var pending) && ReferenceEquals(pending.Owner, owner))
        {
            _pending.Remove((partitionKey, id));
        }
    }

    /// <summary>A write failed: every pending version may build on it, so all are dropped and the generation moves on,
    /// which refuses the records still queued.</summary>
    public void Discard()
    {
        _pending.Clear();
        Interlocked.Increment(ref _generation);
    }
}
