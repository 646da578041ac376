using SensorPipeline.CosmosEmulator.Query;

namespace SensorPipeline.CosmosEmulator.Documents;

/// <summary>
/// The container's spatial indexes, as its indexing policy declares them (<c>spatialIndexes</c> paths such as
/// <c>/location/?</c>, <c>/location/*</c> or <c>/*</c>; none under <c>indexingMode: none</c>). A query whose WHERE
/// clause has a spatial term on an indexed path reads the documents in the term's box from a <see cref="SpatialGrid"/>;
/// on any other path it scans the container, as the service does without an index. A grid is built on the first query
/// that needs it and kept current on every write after that; a policy change drops the grids.
/// </summary>
internal sealed partial class ContainerState
{
    private readonly Dictionary<string, SpatialGrid> _grids = new(StringComparer.Ordinal);
    private string[][] _spatialPaths = [];

    /// <summary>Whether the indexing policy has a spatial index covering the property path.</summary>
    public bool HasSpatialIndex(IReadOnlyList<string> path) => _spatialPaths.Any(indexed => Covers(indexed, path));

    /// <summary>The live documents the spatial index finds in the filter's box, or null when no spatial index covers its
    /// path (the caller scans). With <paramref name="range"/>, only documents of that partition key range. The documents
    /// are copied as references under the gate.</summary>
    public List<StoredDocument>? SpatialCandidates(SpatialFilter filter, string? partitionKey, long now, int? range = null)
    {
        ArgumentNullException.ThrowIfNull(filter);
        lock (Gate)
        {
            if (!HasSpatialIndex(filter.Path))
            {
                return null;
            }

            var name = string.Join('/', filter.Path);
            if (!_grids.TryGetValue(name, out var grid))
            {
                _grids[name] = grid = new SpatialGrid([.. filter.Path]);
                foreach (var (key, partition) in _partitions)
                {
                    foreach (var (id, document) in partition)
                    {
                        grid.Set(key, id, document.Json);
                    }
                }
            }

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

    private void ReadSpatialIndexes(JsonElement resource)
    {
        var paths = new List<string[]>();
        if (resource.TryGetProperty("indexingPolicy", out var policy) && policy.ValueKind == JsonValueKind.Object
            && !(policy.TryGetProperty("indexingMode", out var mode) && mode.ValueKind == JsonValueKind.String && string.Equals(mode.GetString(), "none", StringComparison.OrdinalIgnoreCase))
            && policy.TryGetProperty("spatialIndexes", out var spatial) && spatial.ValueKind == JsonValueKind.Array)
        {
            foreach (var index in spatial.EnumerateArray())
            {
                if (index.ValueKind == JsonValueKind.Object && index.TryGetProperty("path", out var path) && path.ValueKind == JsonValueKind.String)
                {
                    paths.Add(path.GetString()!.Split('/', StringSplitOptions.RemoveEmptyEntries));
                }
            }
        }

        _spatialPaths = [.. paths];
        _grids.Clear();
    }

    /// <summary><c>/a/b/?</c> covers exactly a.b; <c>/a/*</c> covers a and everything below it; <c>/*</c> covers all.</summary>
    private static bool Covers(string[] indexed, IReadOnlyList<string> path)
    {
        if (indexed.Length == 0)
        {
            return false;
        }

        var last = indexed[^1];
        var prefix = last is "?" or "*" ? indexed.Length - 1 : indexed.Length;
        if (last == "*" ? path.Count < prefix : path.Count != prefix)
        {
            return false;
        }

        for (var i = 0; i < prefix; i++)
        {
            if (!string.Equals(indexed[i].Trim('"'), path[i], StringComparison.Ordinal))
            {
                return false;
            }
        }

        return true;
    }

    private void IndexSpatially(string partitionKey, string id, StoredDocument document)
    {
        foreach (var grid in _grids.Values)
        {
            grid.Set(partitionKey, id, document.Json);
        }
    }

    private void UnindexSpatially(string partitionKey, string id)
    {
        foreach (var grid in _grids.Values)
        {
            grid.Remove(partitionKey, id);
        }
    }
}
