using System.Buffers;

namespace SensorPipeline.CosmosEmulator.Charging;

/// <summary>
/// The range-index terms a stored document adds under a policy, counted as "Overview of indexing in Azure Cosmos DB"
/// (https://learn.microsoft.com/azure/cosmos-db/index-overview, 2025-06-30) describes the index: every scalar leaf of the
/// document tree is one path-and-value term (an array element's path carries its position). The rule, with the choices
/// the documentation leaves open:
/// <list type="bullet">
/// <item>a string, number, <c>true</c>, <c>false</c> or <c>null</c> on an indexed path is one term; an empty object or
/// array on an indexed path is one term too (not documented; counted, the conservative choice);</item>
/// <item>nested objects add their leaves (<c>/a/b/c</c>); each array element is its own term (<c>/tags/0</c>, <c>/tags/1</c>);</item>
/// <item><c>id</c> and <c>_ts</c> are always terms; <c>_etag</c> only when an included path names it; the service's
/// addressing properties <c>_rid</c>, <c>_self</c>, <c>_attachments</c> are not document content and add none;</item>
/// <item>an included <c>/…/?</c> path the document lacks still adds one "undefined" term (documented);</item>
/// <item>each composite index adds one term per document (documented: a missing path is indexed as undefined);</item>
/// <item>a GeoJSON object whose type a spatial index on its path declares adds one spatial term (not documented; its
/// coordinates and type are range terms besides, under <c>/*</c>).</item>
/// </list>
/// </summary>
internal static class IndexTerms
{
    private const ulong Offset = 14695981039346656037;
    private const ulong Prime = 1099511628211;

    /// <summary>How many index terms the document adds (0 under <c>indexingMode: none</c>).</summary>
    public static int Count(ReadOnlySpan<byte> json, IndexingPolicy policy) => Walk(json, policy, null, null);

    /// <summary>What replacing <paramref name="before"/> by <paramref name="after"/> changes: the terms removed and
    /// inserted (a changed value is one of each), and the leaves changed whether indexed or not (system properties
    /// aside), which a Patch's base charge counts.</summary>
    public static TermChanges Compare(ReadOnlySpan<byte> before, ReadOnlySpan<byte> after, IndexingPolicy policy)
    {
        List<ulong> oldTerms = [], newTerms = [], oldLeaves = [], newLeaves = [];
        Walk(before, policy, oldTerms, oldLeaves);
        Walk(after, policy, newTerms, newLeaves);
        var (removed, inserted) = Difference(oldTerms, newTerms);
        var (leavesRemoved, leavesInserted) = Difference(oldLeaves, newLeaves);
        return new TermChanges(removed, inserted, Math.Max(leavesRemoved, leavesInserted));
    }

    /// <summary>Multiset difference of two hash lists: (only in <paramref name="a"/>, only in <paramref name="b"/>).</summary>
    private static (int OnlyA, int OnlyB) Difference(List<ulong> a, List<ulong> b)
    {
        a.Sort();
        b.Sort();
        int i = 0, j = 0, onlyA = 0, onlyB = 0;
        while (i < a.Count && j < b.Count)
        {
            var c = a[i].CompareTo(b[j]);
            if (c == 0)
            {
                i++;
                j++;
            }
            else if (c < 0)
            {
                onlyA++;
                i++;
            }
            else
            {
                onlyB++;
                j++;
            }
        }

        return (onlyA + (a.Count - i), onlyB + (b.Count - j));
    }

    private static int Walk(ReadOnlySpan<byte> json, IndexingPolicy policy, List<ulong>? terms, List<ulong>? leaves)
    {
        if (policy.IsNone)
        {
            return 0;
        }

        var walker = new Walker(policy, terms, leaves);
        var reader = new Utf8JsonReader(json);
        if (!reader.Read() || reader.TokenType != JsonTokenType.StartObject)
        {
            return 0;
        }

        walker.Object(ref reader, Offset, 0, null);
        return walker.Finish();
    }

    private sealed class Walker(IndexingPolicy policy, List<ulong>? terms, List<ulong>? leaves)
    {
        private readonly List<string> _path = [];
        private readonly ulong[] _composite = new ulong[policy.Composites.Count];
        private ulong _explicitSeen;
        private int _count;

        public int Finish()
        {
            for (var i = 0; i < policy.ExplicitLeaves.Length && i < 64; i++)
            {
                if ((_explicitSeen & (1UL << i)) == 0)
                {
                    // Documented: an explicitly included path an item lacks is indexed as undefined.
                    Term(Mix(Text(Offset, string.Join('/', policy.ExplicitLeaves[i].Segments)), 0x75), indexed: true, property: false);
                }
            }

            for (var i = 0; i < _composite.Length; i++)
            {
                Term(Mix(_composite[i], (ulong)i + 0xC0), indexed: true, property: false);
            }

            return _count;
        }

        /// <summary>Walks the members of the object the reader stands on (its StartObject); <paramref name="hash"/> is its
        /// path's hash, <paramref name="depth"/> its path length. Returns a hash of its content (its leaves' terms).</summary>
        public ulong Object(ref Utf8JsonReader reader, ulong hash, int depth, IndexingPolicy.SpatialRule? spatial)
        {
            ulong content = 0;
            string? geoType = null;
            var hasCoordinates = false;
            var empty = true;
            while (reader.Read() && reader.TokenType != JsonTokenType.EndObject)
            {
                empty = false;
                var name = reader.GetString()!;
                reader.Read();
                if (depth == 0 && name is "_rid" or "_self" or "_attachments")
                {
                    reader.Skip();
                    continue;
                }

                if (spatial is not null && name == "type" && reader.TokenType == JsonTokenType.String)
                {
                    geoType = reader.GetString();
                }

                hasCoordinates |= spatial is not null && name == "coordinates";
                _path.Add(name);
                content += Value(ref reader, Text(hash, name), depth + 1, system: depth == 0 && name is "_ts" or "_etag");
                _path.RemoveAt(_path.Count - 1);
            }

            if (empty && depth > 0)
            {
                content += Leaf(Mix(hash, 0x7B), 0);
            }

            if (spatial is not null && hasCoordinates && geoType is not null && spatial.Types.Contains(geoType, StringComparer.OrdinalIgnoreCase))
            {
                // The spatial term follows the geometry: a moved point is one spatial term removed and one inserted.
                Term(Mix(Mix(hash, 0x5A), content), indexed: true, property: false);
            }

            return content;
        }

        private ulong Value(ref Utf8JsonReader reader, ulong hash, int depth, bool system)
        {
            switch (reader.TokenType)
            {
                case JsonTokenType.StartObject:
                    return Object(ref reader, hash, depth, SpatialRuleAt());
                case JsonTokenType.StartArray:
                    ulong content = 0;
                    var position = 0;
                    while (reader.Read() && reader.TokenType != JsonTokenType.EndArray)
                    {
                        _path.Add("[]");
                        content += Value(ref reader, Mix(hash, (ulong)position++ + 0x100), depth + 1, system: false);
                        _path.RemoveAt(_path.Count - 1);
                    }

                    return position == 0 ? Leaf(Mix(hash, 0x5B), 0) : content;
                case JsonTokenType.String:
                    return Leaf(hash, StringHash(ref reader), system);
                case JsonTokenType.Number:
                    return Leaf(hash, Mix(Offset, (ulong)BitConverter.DoubleToInt64Bits(reader.GetDouble())), system);
                default:
                    return Leaf(hash, (ulong)reader.TokenType, system);
            }
        }

        /// <summary>Records one leaf's term; returns its hash.</summary>
        private ulong Leaf(ulong pathHash, ulong valueHash, bool system = false)
        {
            for (var i = 0; i < policy.ExplicitLeaves.Length && i < 64; i++)
            {
                if (IndexingPolicy.Rule.PrefixMatches(policy.ExplicitLeaves[i].Segments, _path, subtree: false))
                {
                    _explicitSeen |= 1UL << i;
                }
            }

            for (var i = 0; i < _composite.Length; i++)
            {
                foreach (var path in policy.Composites[i].Paths)
                {
                    if (IndexingPolicy.Rule.PrefixMatches(path.Segments, _path, subtree: false))
                    {
                        _composite[i] = Mix(_composite[i] == 0 ? Offset : _composite[i], Mix(pathHash, valueHash));
                    }
                }
            }

            var term = Mix(pathHash, valueHash);
            Term(term, policy.IsRangeIndexed(_path), property: !system);
            return term;
        }

        /// <summary>One index term (when <paramref name="indexed"/>), and one property value of the document (when
        /// <paramref name="property"/>: not a system property, not a spatial, composite or undefined index entry).</summary>
        private void Term(ulong hash, bool indexed, bool property)
        {
            if (indexed)
            {
                _count++;
                terms?.Add(hash);
            }

            if (property)
            {
                leaves?.Add(hash);
            }
        }

        private IndexingPolicy.SpatialRule? SpatialRuleAt()
        {
            foreach (var rule in policy.Spatial)
            {
                if (IndexingPolicy.Rule.PrefixMatches(rule.Segments, _path, subtree: true))
                {
                    return rule;
                }
            }

            return null;
        }

        private static ulong StringHash(ref Utf8JsonReader reader)
        {
            if (!reader.ValueIsEscaped)
            {
                return Bytes(Offset, reader.ValueSpan);
            }

            var rented = ArrayPool<byte>.Shared.Rent(reader.ValueSpan.Length);
            try
            {
                var length = reader.CopyString(rented);
                return Bytes(Offset, rented.AsSpan(0, length));
            }
            finally
            {
                ArrayPool<byte>.Shared.Return(rented);
            }
        }
    }

    private static ulong Text(ulong hash, string text)
    {
        foreach (var c in text)
        {
            hash = (hash ^ c) * Prime;
        }

        return Mix(hash, 0x2F);
    }

    private static ulong Bytes(ulong hash, ReadOnlySpan<byte> bytes)
    {
        foreach (var b in bytes)
        {
            hash = (hash ^ b) * Prime;
        }

        return hash;
    }

    private static ulong Mix(ulong hash, ulong value)
    {
        for (var i = 0; i < 8; i++)
        {
            hash = (hash ^ (value & 0xFF)) * Prime;
            value >>= 8;
        }

        return hash;
    }
}

/// <summary>What a write changes in the index: terms removed, terms inserted, and leaf values changed (indexed or not).</summary>
internal readonly record struct TermChanges(int Removed, int Inserted, int ModifiedProperties);
