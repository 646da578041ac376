using SensorPipeline.CosmosEmulator.Query;

namespace SensorPipeline.CosmosEmulator.Documents;

/// <summary>
/// The helpers of <see cref="ContainerState.IdCandidates"/>. Queries that pin documents by id (<see cref="SqlQuery.FindIdLookup"/>: <c>c.id = @id</c>, <c>c.id IN (…)</c>, the
/// SDKs' ReadMany) read their candidates from the documents' dictionaries instead of scanning the container, as the
/// service serves them from its index on <c>id</c>. The candidates come in the order a scan of the same scope reads
/// them — partitions in dictionary order, documents in their partition's order — so the query's result, ties of an
/// ORDER BY included, is the scan's.
/// </summary>
internal static class IdHits
{
    /// <summary>The ids by canonical partition key, and those that may be in any partition.</summary>
    public static (Dictionary<string, HashSet<string>> Pinned, HashSet<string> Anywhere) GroupByPartition(IdLookup lookup)
    {
        var pinned = new Dictionary<string, HashSet<string>>(StringComparer.Ordinal);
        var anywhere = new HashSet<string>(StringComparer.Ordinal);
        foreach (var key in lookup.Keys)
        {
            if (key.PartitionKey is { } json && PartitionKeys.FromHeader(json) is { } canonical)
            {
                if (!pinned.TryGetValue(canonical, out var ids))
                {
                    pinned[canonical] = ids = new HashSet<string>(StringComparer.Ordinal);
                }

                ids.Add(key.Id);
            }
            else
            {
                anywhere.Add(key.Id);
            }
        }

        return (pinned, anywhere);
    }

    public static void AddHits(Dictionary<string, StoredDocument> partition, HashSet<string> ids, Dictionary<Dictionary<string, StoredDocument>, HashSet<StoredDocument>> hits,
        int? defaultTtl, long now)
    {
        foreach (var id in ids)
        {
            if (partition.TryGetValue(id, out var document) && !document.IsExpired(defaultTtl, now))
            {
                if (!hits.TryGetValue(partition, out var found))
                {
                    hits[partition] = found = new HashSet<StoredDocument>(ReferenceEqualityComparer.Instance);
                }

                found.Add(document);
            }
        }
    }

    /// <summary>The hits in the order a scan reads them. Only the order among several hits needs a walk: of the partition
    /// dictionaries when several partitions hold hits, of a partition's documents when it holds several — reference
    /// checks, no document is parsed.</summary>
    public static List<StoredDocument> InScanOrder(Dictionary<string, Dictionary<string, StoredDocument>> partitions,
        Dictionary<Dictionary<string, StoredDocument>, HashSet<StoredDocument>> hits)
    {
        var result = new List<StoredDocument>();
        if (hits.Count == 1)
        {
            var (partition, found) = hits.First();
            AddInOrder(partition, found, result);
            return result;
        }

        foreach (var partition in partitions.Values)
        {
            if (hits.TryGetValue(partition, out var found))
            {
                AddInOrder(partition, found, result);
            }
        }

        return result;
    }

    private static void AddInOrder(Dictionary<string, StoredDocument> partition, HashSet<StoredDocument> found, List<StoredDocument> result)
    {
        if (found.Count == 1)
        {
            result.Add(found.First());
            return;
        }

        foreach (var document in partition.Values)
        {
            if (found.Contains(document))
            {
                result.Add(document);
            }
        }
    }
}
