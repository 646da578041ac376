namespace SensorPipeline.CosmosEmulator.Documents;

/// <summary>
/// The container's spatial indexes, as its indexing policy declares them (<c>spatialIndexes</c> paths such as
/// <c>/location/?</c>, <c>/location/*</c> or <c>/*</c>; none under <c>indexingMode: none</c>). A query whose WHERE
/// clause has a spatial term on an indexed path reads the documents in the term's box from a <see cref="SpatialGrid"/>;
/// on any other path it scans the container, as the service does without an index. A grid is built on the first query
/// that needs it and kept current on every write after that; a policy change drops the grids.
/// </summary>
internal sealed class ContainerSpatialIndexes
{
    private readonly Dictionary<string, SpatialGrid> _grids = new(StringComparer.Ordinal);
    private string[][] _spatialPaths = [];

    /// <summary>Whether the indexing policy has a spatial index covering the property path.</summary>
    public bool HasSpatialIndex(IReadOnlyList<string> path) => _spatialPaths.Any(indexed => Covers(indexed, path));

    /// <summary>The grid over <paramref name="path"/>, built from <paramref name="documents"/> (every stored document)
    /// on the first query that needs it (caller holds the container's gate).</summary>
    public SpatialGrid GridFor(IReadOnlyList<string> path, Dictionary<string, Dictionary<string, StoredDocument>> documents)
    {
        var name = string.Join('/', path);
        if (!_grids.TryGetValue(name, out var grid))
        {
            _grids[name] = grid = new SpatialGrid([.. path]);
            foreach (var (key, partition) in documents)
            {
                foreach (var (id, document) in partition)
                {
                    grid.Set(key, id, document.Json);
                }
            }
        }

        return grid;
    }

    /// <summary>Takes the indexing policy of a created or replaced container; drops the grids.</summary>
    public void Configure(JsonElement resource)
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

    public void Index(string partitionKey, string id, StoredDocument document)
    {
        foreach (var grid in _grids.Values)
        {
            grid.Set(partitionKey, id, document.Json);
        }
    }

    public void Unindex(string partitionKey, string id)
    {
        foreach (var grid in _grids.Values)
        {
            grid.Remove(partitionKey, id);
        }
    }
}
