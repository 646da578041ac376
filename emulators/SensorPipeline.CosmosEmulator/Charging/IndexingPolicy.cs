using System.Text;

namespace SensorPipeline.CosmosEmulator.Charging;

/// <summary>
/// A container's indexing policy, compiled for two questions: which range-index terms a document adds (its write
/// charge) and whether a query's paths are indexed (ORDER BY and filters). Rules follow "Indexing policies in Azure
/// Cosmos DB" (https://learn.microsoft.com/azure/cosmos-db/index-policy, 2025-05-08): <c>/?</c> ends a path to a scalar,
/// <c>/[]</c> stands for any array element, <c>/*</c> covers a node and everything below it; when included and excluded
/// paths both match, the more precise one wins (the deeper path; at the same depth <c>/?</c> before <c>/*</c>);
/// <c>id</c> and <c>_ts</c> are always indexed under consistent indexing; <c>_etag</c> only when a path names it.
/// </summary>
internal sealed class IndexingPolicy
{
    /// <summary>The service's default: consistent, <c>/*</c> included, <c>_etag</c> excluded, no spatial or composite index.</summary>
    public static readonly IndexingPolicy Default = new(false, [new Rule([], true, true)], [], []);

    private readonly Rule[] _rules;

    private IndexingPolicy(bool none, Rule[] rules, SpatialRule[] spatial, CompositeIndex[] composites)
    {
        IsNone = none;
        // Most precise first: the first rule that matches a path decides it.
        _rules = [.. rules.OrderByDescending(static r => r.Segments.Length).ThenBy(static r => r.Subtree).ThenBy(static r => r.Included)];
        Spatial = spatial;
        Composites = composites;
        ExplicitLeaves = [.. _rules.Where(static r => r.Included && !r.Subtree && !r.Segments.Contains("[]"))];
    }

    /// <summary><c>indexingMode: none</c>: nothing is indexed, not even <c>id</c> and <c>_ts</c>.</summary>
    public bool IsNone { get; }

    public IReadOnlyList<SpatialRule> Spatial { get; }

    public IReadOnlyList<CompositeIndex> Composites { get; }

    /// <summary>Included <c>/…/?</c> paths without array wildcards: an item that lacks one still adds an "undefined" term.</summary>
    internal Rule[] ExplicitLeaves { get; }

    internal IReadOnlyList<Rule> Rules => _rules;

    /// <summary>The policy of a container resource (its <c>indexingPolicy</c>; the default when absent).</summary>
    public static IndexingPolicy From(JsonElement container)
    {
        if (!container.TryGetProperty("indexingPolicy", out var policy) || policy.ValueKind != JsonValueKind.Object)
        {
            return Default;
        }

        var none = policy.TryGetProperty("indexingMode", out var mode) && mode.ValueKind == JsonValueKind.String
            && string.Equals(mode.GetString(), "none", StringComparison.OrdinalIgnoreCase);
        var rules = new List<Rule>();
        AddRules(policy, "includedPaths", true, rules);
        AddRules(policy, "excludedPaths", false, rules);
        if (!rules.Any(static r => r.Segments.Length == 0))
        {
            // A policy must include or exclude the root; the service includes it when the client names neither (the SDKs
            // send "includedPaths": [] when only exclusions were set).
            rules.Add(new Rule([], true, true));
        }

        var spatial = new List<SpatialRule>();
        if (policy.TryGetProperty("spatialIndexes", out var spatialIndexes) && spatialIndexes.ValueKind == JsonValueKind.Array)
        {
            foreach (var index in spatialIndexes.EnumerateArray())
            {
                if (index.TryGetProperty("path", out var path) && path.ValueKind == JsonValueKind.String)
                {
                    var types = index.TryGetProperty("types", out var t) && t.ValueKind == JsonValueKind.Array
                        ? t.EnumerateArray().Where(static v => v.ValueKind == JsonValueKind.String).Select(static v => v.GetString()!).ToArray()
                        : ["Point", "LineString", "Polygon", "MultiPolygon"];
                    spatial.Add(new SpatialRule(Parse(path.GetString()!).Segments, types));
                }
            }
        }

        var composites = new List<CompositeIndex>();
        if (policy.TryGetProperty("compositeIndexes", out var compositeIndexes) && compositeIndexes.ValueKind == JsonValueKind.Array)
        {
            foreach (var composite in compositeIndexes.EnumerateArray().Where(static c => c.ValueKind == JsonValueKind.Array))
            {
                composites.Add(new CompositeIndex([.. composite.EnumerateArray().Select(static p => new CompositePath(
                    Parse(p.GetProperty("path").GetString()!).Segments,
                    p.TryGetProperty("order", out var order) && string.Equals(order.GetString(), "descending", StringComparison.OrdinalIgnoreCase)))]));
            }
        }

        return new IndexingPolicy(none, [.. rules], [.. spatial], [.. composites]);
    }

    /// <summary>Whether a range index covers a value at <paramref name="path"/> (property names; array positions as
    /// <c>[]</c>): the system rule for <c>id</c>, <c>_ts</c> and <c>_etag</c>, else the most precise matching path.</summary>
    public bool IsRangeIndexed(IReadOnlyList<string> path)
    {
        ArgumentNullException.ThrowIfNull(path);
        if (IsNone)
        {
            return false;
        }

        if (path.Count == 1 && path[0] is "id" or "_ts")
        {
            return true;
        }

        foreach (var rule in _rules)
        {
            if (rule.Matches(path))
            {
                return rule.Included && (path.Count != 1 || path[0] != "_etag" || rule.Segments.Length > 0);
            }
        }

        return false;
    }

    /// <summary>Whether a spatial index of any type covers <paramref name="path"/>.</summary>
    public bool IsSpatiallyIndexed(IReadOnlyList<string> path) =>
        !IsNone && Spatial.Any(s => Rule.PrefixMatches(s.Segments, path, subtree: true));

    private static void AddRules(JsonElement policy, string name, bool included, List<Rule> rules)
    {
        if (!policy.TryGetProperty(name, out var paths) || paths.ValueKind != JsonValueKind.Array)
        {
            return;
        }

        foreach (var entry in paths.EnumerateArray())
        {
            if (entry.TryGetProperty("path", out var path) && path.ValueKind == JsonValueKind.String)
            {
                var (segments, subtree) = Parse(path.GetString()!);
                rules.Add(new Rule(segments, subtree, included));
            }
        }
    }

    /// <summary><c>/a/"b c"/[]/?</c> → (["a", "b c", "[]"], false); <c>/a/*</c> → (["a"], true); <c>/*</c> → ([], true).</summary>
    private static (string[] Segments, bool Subtree) Parse(string path)
    {
        var parts = path.Split('/', StringSplitOptions.RemoveEmptyEntries).Select(static s => s.Trim('"')).ToList();
        var subtree = true;
        if (parts.Count > 0 && parts[^1] is "?" or "*")
        {
            subtree = parts[^1] == "*";
            parts.RemoveAt(parts.Count - 1);
        }

        // A tuple or an explicit array position (/[1]/) stands for array elements like /[]/.
        return ([.. parts.Select(static p => p.StartsWith('[') ? "[]" : p)], subtree);
    }

    /// <summary>One included or excluded path: its segments, whether it covers the subtree (<c>/*</c>) or only the
    /// value at the path (<c>/?</c>).</summary>
    internal sealed record Rule(string[] Segments, bool Subtree, bool Included)
    {
        public byte[][] Utf8 { get; } = [.. Segments.Select(static s => Encoding.UTF8.GetBytes(s))];

        public bool Matches(IReadOnlyList<string> path) => PrefixMatches(Segments, path, Subtree);

        public static bool PrefixMatches(string[] segments, IReadOnlyList<string> path, bool subtree)
        {
            if (subtree ? path.Count < segments.Length : path.Count != segments.Length)
            {
                return false;
            }

            for (var i = 0; i < segments.Length; i++)
            {
                if (!string.Equals(segments[i], path[i], StringComparison.Ordinal))
                {
                    return false;
                }
            }

            return true;
        }
    }

    /// <summary>A spatial index: the path it covers (always a subtree) and the GeoJSON types it indexes.</summary>
    internal sealed record SpatialRule(string[] Segments, string[] Types);

    internal sealed record CompositePath(string[] Segments, bool Descending);

    internal sealed record CompositeIndex(CompositePath[] Paths);
}
