namespace SensorPipeline.FunctionsHost.Status;

/// <summary>The partitions one function's processor holds in this instance, with a signal when that set changes, and
/// every owner's ownership records as last listed (for status). Thread-safe: the processor's partition callbacks
/// write, the status snapshot reads.</summary>
internal sealed class OwnedPartitions
{
    private readonly Lock _lock = new();

    // Serializes Add and Remove (read, change, publish) from the processor's concurrent partition callbacks.
    private readonly Lock _edit = new();
    private HashSet<string> _current = new(StringComparer.Ordinal);
    private IReadOnlyList<PartitionOwnership> _records = [];
    private TaskCompletionSource _changed = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private long _changes;
    private readonly Dictionary<string, (string Owner, long Changes)> _owners = new(StringComparer.Ordinal);

    public IReadOnlySet<string> Current
    {
        get
        {
            lock (_lock)
            {
                return _current;
            }
        }
    }

    /// <summary>Completes at the next change of <see cref="Current"/>; take it before reading Current.</summary>
    public Task Changed
    {
        get
        {
            lock (_lock)
            {
                return _changed.Task;
            }
        }
    }

    /// <summary>Times the owned set changed (a claim, a steal, a loss, an expiry).</summary>
    public long Changes => Interlocked.Read(ref _changes);

    /// <summary>The store's records as of the last cycle (every instance's), for status.</summary>
    public IReadOnlyList<PartitionOwnership> Records
    {
        get
        {
            lock (_lock)
            {
                return _records;
            }
        }
    }

    /// <summary>How often a partition's recorded owner changed while this host watched (claims from another owner,
    /// steals, relinquishes; renewals are not changes).</summary>
    public long OwnerChanges(string partitionId)
    {
        lock (_lock)
        {
            return _owners.TryGetValue(partitionId, out var entry) ? entry.Changes : 0;
        }
    }

    /// <summary>Publishes the owned set; returns the partitions gained and lost (both empty: no change).</summary>
    public (IReadOnlyList<string> Gained, IReadOnlyList<string> Lost) Set(IEnumerable<string> owned, IReadOnlyList<PartitionOwnership>? records = null)
    {
        var next = new HashSet<string>(owned, StringComparer.Ordinal);
        TaskCompletionSource? changed = null;
        List<string> gained;
        List<string> lost;
        lock (_lock)
        {
            if (records is not null)
            {
                _records = records;
                foreach (var record in records)
                {
                    var seen = _owners.TryGetValue(record.PartitionId, out var entry);
                    if (!seen || entry.Owner != record.OwnerId)
                    {
                        _owners[record.PartitionId] = (record.OwnerId, seen ? entry.Changes + 1 : 0);
                    }
                }
            }

            gained = next.Where(p => !_current.Contains(p)).Order(StringComparer.Ordinal).ToList();
            lost = _current.Where(p => !next.Contains(p)).Order(StringComparer.Ordinal).ToList();
            if (gained.Count > 0 || lost.Count > 0)
            {
                _current = next;
                changed = _changed;
                _changed = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
                _changes++;
            }
        }

        changed?.TrySetResult();
        return (gained, lost);
    }

    /// <summary>Adds one partition to the owned set (the SDK's processor initialized it).</summary>
    public void Add(string partitionId)
    {
        lock (_edit)
        {
            Set(Current.Append(partitionId));
        }
    }

    /// <summary>Removes one partition from the owned set (the SDK's processor stopped processing it).</summary>
    public void Remove(string partitionId)
    {
        lock (_edit)
        {
            Set(Current.Where(p => p != partitionId));
        }
    }

    /// <summary>Records every instance's ownership records as last listed, keeping the owned set.</summary>
    public void Publish(IReadOnlyList<PartitionOwnership> records) => Set(Current, records);
}
