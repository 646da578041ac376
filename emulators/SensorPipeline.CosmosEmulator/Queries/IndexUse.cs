using SensorPipeline.CosmosEmulator.Charging;
using SensorPipeline.CosmosEmulator.Documents;
using SensorPipeline.CosmosEmulator.Query;

namespace SensorPipeline.CosmosEmulator.Queries;

/// <summary>
/// What a container's indexing policy allows a query, as the service documents it: an ORDER BY on one property needs a
/// range index on its path and "fails if the path it references doesn't have one" ("Overview of indexing",
/// https://learn.microsoft.com/azure/cosmos-db/index-overview); an ORDER BY on several needs a composite index with the
/// same paths in the same order, with the same directions or all reversed ("Indexing policies",
/// https://learn.microsoft.com/azure/cosmos-db/index-policy). Both refusals are the service's 400 and messages. A filter
/// no index serves is not refused: the query scans every item in scope and is charged for each.
/// </summary>
internal static class IndexUse
{
    public const string OrderByExcluded = "The index path corresponding to the specified order-by item is excluded.";

    public const string NoCompositeIndex = "The order by query does not have a corresponding composite index that it can be served from.";

    /// <summary>Throws the service's 400 when the policy cannot serve the query's ORDER BY.</summary>
    public static void CheckOrderBy(SqlQuery query, IndexingPolicy policy)
    {
        ArgumentNullException.ThrowIfNull(query);
        ArgumentNullException.ThrowIfNull(policy);
        var items = query.OrderByPaths;
        if (items.Count == 1 && !policy.IsRangeIndexed(items[0].Path))
        {
            throw new StoreException(400, "BadRequest", OrderByExcluded);
        }

        if (items.Count > 1 && (policy.IsNone || !policy.Composites.Any(c => Serves(c, items))))
        {
            throw new StoreException(400, "BadRequest", NoCompositeIndex);
        }
    }

    /// <summary>Whether the query loads only its matching items (an index serves its filter) rather than all in scope.</summary>
    public static bool ServesFilter(SqlQuery query, IndexingPolicy policy)
    {
        ArgumentNullException.ThrowIfNull(query);
        ArgumentNullException.ThrowIfNull(policy);
        return !policy.IsNone && query.FilterUsesIndex(policy.IsRangeIndexed, policy.IsSpatiallyIndexed);
    }

    private static bool Serves(IndexingPolicy.CompositeIndex index, IReadOnlyList<OrderByPath> items)
    {
        if (index.Paths.Length != items.Count)
        {
            return false;
        }

        var reversed = index.Paths[0].Descending != items[0].Descending;
        for (var i = 0; i < items.Count; i++)
        {
            if (!index.Paths[i].Segments.SequenceEqual(items[i].Path, StringComparer.Ordinal)
                || (index.Paths[i].Descending != items[i].Descending) != reversed)
            {
                return false;
            }
        }

        return true;
    }
}
