using SensorPipeline.CosmosEmulator.Charging;
using SensorPipeline.CosmosEmulator.Query;
using SensorPipeline.CosmosEmulator.Throttling;

namespace SensorPipeline.CosmosEmulator.Documents;

/// <summary>One container: its resource JSON, its partition key paths and TTL, and its documents by partition key and
/// id. <see cref="Gate"/> orders every change with its log record; reads take it briefly too (the dictionaries are
/// not safe for a read during a write). Readers see committed (durable) documents only; a write is checked against the
/// latest version, which may still be pending — queued for the log, not yet durable (<see cref="FindLatest"/>).</summary>
internal sealed partial class ContainerState
{
    private readonly Dictionary<string, Dictionary<string, StoredDocument>> _partitions = new(StringComparer.Ordinal);
    private readonly ContainerSpatialIndexes _spatial = new();
    private long _bytes;

    public ContainerState(string databaseId, byte[] resource, TokenBucket budget)
    {
        DatabaseId = databaseId;
        Budget = budget;
        Update(resource);
    }

    public object Gate { get; } = new();

    public string DatabaseId { get; }

    public string Id { get; private set; } = "";

    public string Rid { get; private set; } = "";

    public string SelfLink { get; private set; } = "";

    /// <summary>The container resource as the service returns it.</summary>
    public byte[] Resource { get; private set; } = [];

    public string ETag { get; private set; } = "";

    /// <summary>Each partition key path split into property names (<c>/deviceId</c> → <c>["deviceId"]</c>).</summary>
    public IReadOnlyList<string[]> PartitionKeyPaths { get; private set; } = [];

    /// <summary>The container's <c>defaultTtl</c>: null when TTL is off.</summary>
    public int? DefaultTtl { get; private set; }

    /// <summary>The container's request-unit budget (unlimited unless configured).</summary>
    public TokenBucket Budget { get; }

    public int DocumentCount { get; private set; }

    /// <summary>The versions queued for the log and not yet durable (<see cref="FindLatest"/> checks writes against them).</summary>
    public PendingVersions Pending { get; } = new();

    /// <summary>Bytes of document JSON held (the live size compaction compares the log with).</summary>
    public long Bytes => Interlocked.Read(ref _bytes);

    /// <summary>Takes a replaced resource's definition (TTL and indexing can change; id and partition key cannot).</summary>
    public void Update(byte[] resource)
    {
        using var document = JsonDocument.Parse(resource);
        var root = document.RootElement;
        Id = root.GetProperty("id").GetString()!;
        Rid = root.GetProperty("_rid").GetString()!;
        SelfLink = root.GetProperty("_self").GetString()!;
        ETag = root.GetProperty("_etag").GetString()!;
        var paths = new List<string[]>();
        if (root.TryGetProperty("partitionKey", out var key) && key.TryGetProperty("paths", out var keyPaths))
        {
            ReadPartitioning(key);
            foreach (var path in keyPaths.EnumerateArray())
            {
                paths.Add(path.GetString()!.Split('/', StringSplitOptions.RemoveEmptyEntries));
            }
        }

        PartitionKeyPaths = paths;
        DefaultTtl = root.TryGetProperty("defaultTtl", out var ttl) && ttl.ValueKind == JsonValueKind.Number ? ttl.GetInt32() : null;
        _spatial.Configure(root);
        ReadIndexingPolicy(root);
        Resource = resource;
    }

    /// <summary>The document, or null when absent or expired. Call without holding <see cref="Gate"/>.</summary>
    public StoredDocument? Read(string partitionKey, string id, long now)
    {
        lock (Gate)
        {
            return Find(partitionKey, id, now);
        }
    }

    /// <summary>The live document under <see cref="Gate"/> (held by the caller).</summary>
    public StoredDocument? Find(string partitionKey, string id, long now) =>
        _partitions.TryGetValue(partitionKey, out var partition) && partition.TryGetValue(id, out var document) && !document.IsExpired(DefaultTtl, now)
            ? document
            : null;

    /// <summary>Stores or replaces a document (caller holds <see cref="Gate"/>, or is replaying the log); returns the
    /// one it replaced, if any.</summary>
    public StoredDocument? Put(string partitionKey, string id, StoredDocument document)
    {
        if (!_partitions.TryGetValue(partitionKey, out var partition))
        {
            _partitions[partitionKey] = partition = new Dictionary<string, StoredDocument>(StringComparer.Ordinal);
        }

        partition.TryGetValue(id, out var previous);
        partition[id] = document;
        _spatial.Index(partitionKey, id, document);
        Interlocked.Add(ref _bytes, document.Json.Length - (previous?.Json.Length ?? 0));
        if (previous is null)
        {
            DocumentCount++;
        }

        return previous;
    }

    /// <summary>Removes a document (caller holds <see cref="Gate"/>, or is replaying the log); returns it, if it was there.</summary>
    public StoredDocument? Remove(string partitionKey, string id)
    {
        if (!_partitions.TryGetValue(partitionKey, out var partition) || !partition.Remove(id, out var previous))
        {
            return null;
        }

        if (partition.Count == 0)
        {
            _partitions.Remove(partitionKey);
        }

        _spatial.Unindex(partitionKey, id);
        Interlocked.Add(ref _bytes, -previous.Json.Length);
        DocumentCount--;
        return previous;
    }

    /// <summary>The version a write is checked against (caller holds <see cref="Gate"/>): the newest pending one,
    /// else the committed one; null when absent, deleted or expired.</summary>
    public StoredDocument? FindLatest(string partitionKey, string id, long now) =>
        Pending.TryGet(partitionKey, id, out var pending)
            ? pending is { } document && !document.IsExpired(DefaultTtl, now) ? document : null
            : Find(partitionKey, id, now);

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

        Pending.Unstage(partitionKey, id, owner);
    }

    /// <summary>The live documents the spatial index finds in the filter's box, or null when no spatial index covers its
    /// path (the caller scans). With <paramref name="range"/>, only documents of that partition key range. The documents
    /// are copied as references under the gate.</summary>
    public List<StoredDocument>? SpatialCandidates(SpatialFilter filter, string? partitionKey, long now, int? range = null)
    {
        ArgumentNullException.ThrowIfNull(filter);
        lock (Gate)
        {
            if (!_spatial.HasSpatialIndex(filter.Path))
            {
                return null;
            }

            var grid = _spatial.GridFor(filter.Path, _partitions);
            var result = new List<StoredDocument>();
            foreach (var key in grid.Find(filter, partitionKey))
            {
                if (InScope(key.PartitionKey, partitionKey, range) && Find(key.PartitionKey, key.Id, now) is { } document)
                {
                    result.Add(document);
                }
            }

            return result;
        }
    }

    /// <summary>Queries that pin documents by id (<see cref="SqlQuery.FindIdLookup"/>: <c>c.id = @id</c>, <c>c.id IN (…)</c>,
    /// the SDKs' ReadMany) read their candidates here instead of scanning, in the order a scan reads them (see
    /// <see cref="IdHits"/>). The live documents of the scope (one partition key, one range, or all) whose id — and partition key, where
    /// a key names one — is among <paramref name="lookup"/>'s keys, each once, in scan order; copied as references
    /// under the gate.</summary>
    public List<StoredDocument> IdCandidates(IdLookup lookup, string? partitionKey, int? range, long now)
    {
        ArgumentNullException.ThrowIfNull(lookup);
        var (pinned, anywhere) = IdHits.GroupByPartition(lookup);
        lock (Gate)
        {
            var hits = new Dictionary<Dictionary<string, StoredDocument>, HashSet<StoredDocument>>(ReferenceEqualityComparer.Instance);
            foreach (var (key, ids) in pinned)
            {
                if (InScope(key, partitionKey, range) && _partitions.TryGetValue(key, out var partition))
                {
                    IdHits.AddHits(partition, ids, hits, DefaultTtl, now);
                }
            }

            if (anywhere.Count > 0)
            {
                foreach (var (key, partition) in _partitions)
                {
                    if (InScope(key, partitionKey, range))
                    {
                        IdHits.AddHits(partition, anywhere, hits, DefaultTtl, now);
                    }
                }
            }

            return IdHits.InScanOrder(_partitions, hits);
        }
    }

    /// <summary>The live documents of one partition (or all when <paramref name="partitionKey"/> is null), copied as
    /// references under the lock so a query runs without holding it.</summary>
    public List<StoredDocument> Snapshot(string? partitionKey, long now)
    {
        lock (Gate)
        {
            var result = new List<StoredDocument>(partitionKey is null ? DocumentCount : 16);
            if (partitionKey is not null)
            {
                if (_partitions.TryGetValue(partitionKey, out var partition))
                {
                    AddLive(partition, result, now);
                }
            }
            else
            {
                foreach (var partition in _partitions.Values)
                {
                    AddLive(partition, result, now);
                }
            }

            return result;
        }
    }

    /// <summary>Every stored document with its keys (compaction), under the lock.</summary>
    public List<(string PartitionKey, string Id, StoredDocument Document)> Entries()
    {
        lock (Gate)
        {
            var result = new List<(string, string, StoredDocument)>(DocumentCount);
            foreach (var (key, partition) in _partitions)
            {
                foreach (var (id, document) in partition)
                {
                    result.Add((key, id, document));
                }
            }

            return result;
        }
    }

    /// <summary>Drops expired documents from memory, charging each as a delete (<see cref="ChargedOperation.Expiry"/>).
    /// They are already invisible; no log record is needed because replay drops them too (expiry follows from
    /// <c>_ts</c> and the TTLs).</summary>
    public int PurgeExpired(long now)
    {
        if (DefaultTtl is null)
        {
            return 0;
        }

        var removed = new List<StoredDocument>();
        lock (Gate)
        {
            var expired = new List<(string, string)>();
            foreach (var (key, partition) in _partitions)
            {
                foreach (var (id, document) in partition)
                {
                    if (document.IsExpired(DefaultTtl, now))
                    {
                        expired.Add((key, id));
                    }
                }
            }

            foreach (var (key, id) in expired)
            {
                if (Remove(key, id) is { } document)
                {
                    removed.Add(document);
                }
            }
        }

        // The service deletes expired items in the background with the container's spare throughput; their charges
        // are counted outside the lock, so a mass expiry does not hold up writes.
        foreach (var document in removed)
        {
            Charge(ChargedOperation.Expiry, DeleteCharge(document));
        }

        return removed.Count;
    }

    private void AddLive(Dictionary<string, StoredDocument> partition, List<StoredDocument> result, long now)
    {
        foreach (var document in partition.Values)
        {
            if (!document.IsExpired(DefaultTtl, now))
            {
                result.Add(document);
            }
        }
    }
}
