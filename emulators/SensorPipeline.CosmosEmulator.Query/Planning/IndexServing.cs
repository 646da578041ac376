using SensorPipeline.CosmosEmulator.Query.Parsing;

namespace SensorPipeline.CosmosEmulator.Query.Planning;

/// <summary>Which indexes a query uses: its ORDER BY paths, and whether the container's indexes serve its filter.</summary>
internal static class IndexServing
{
    /// <summary>Functions the service evaluates by loading every item ("Overview of indexing": UPPER and LOWER are its
    /// examples of a full scan).</summary>
    private static readonly HashSet<string> FullScanFunctions = new(StringComparer.OrdinalIgnoreCase) { "UPPER", "LOWER" };

    private static readonly HashSet<string> SpatialFunctions = new(StringComparer.OrdinalIgnoreCase) { "ST_DISTANCE", "ST_WITHIN", "ST_INTERSECTS" };

    /// <summary>The ORDER BY items (empty without ORDER BY); the grammar admits only document paths there.</summary>
    public static IReadOnlyList<OrderByPath> OrderByPaths(QueryModel model) =>
        [.. model.OrderBy.Select(static o => new OrderByPath(DocumentPaths.Of(o.Path) ?? [], o.Descending))];

    /// <summary>Whether one top-level AND term of <paramref name="where"/> is served by an index (see
    /// <see cref="SqlQuery.FilterUsesIndex"/>); true without a WHERE clause.</summary>
    public static bool FilterUsesIndex(Expr? where, Func<IReadOnlyList<string>, bool> rangeIndexed, Func<IReadOnlyList<string>, bool> spatiallyIndexed) =>
        where is null || DocumentPaths.Flatten<AndExpr>(where).Any(term => Served(term, rangeIndexed, spatiallyIndexed) == true);

    /// <summary>True when an index serves the term, false when it cannot, null when the term reads no document path.</summary>
    private static bool? Served(Expr expr, Func<IReadOnlyList<string>, bool> rangeIndexed, Func<IReadOnlyList<string>, bool> spatiallyIndexed)
    {
        if (DocumentPaths.Of(expr) is { } path)
        {
            return path.Count > 0 && rangeIndexed(path);
        }

        if (expr is FunctionExpr function)
        {
            if (FullScanFunctions.Contains(function.Function.Name))
            {
                return false;
            }

            if (SpatialFunctions.Contains(function.Function.Name))
            {
                var paths = function.Args.Select(DocumentPaths.Of).Where(static p => p is { Count: > 0 }).ToList();
                return paths.Count == 0 ? null : paths.All(p => spatiallyIndexed(p!));
            }
        }

        bool? served = null;
        foreach (var child in expr.Children)
        {
            var childServed = Served(child, rangeIndexed, spatiallyIndexed);
            if (childServed == false)
            {
                return false;
            }

            served ??= childServed;
        }

        return served;
    }
}
