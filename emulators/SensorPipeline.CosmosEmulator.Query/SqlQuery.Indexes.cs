namespace SensorPipeline.CosmosEmulator.Query;

/// <summary>One ORDER BY item as a document path (property names; array positions as <c>[]</c>, as indexing policies
/// write them) and its direction.</summary>
public sealed record OrderByPath(IReadOnlyList<string> Path, bool Descending);

public sealed partial class SqlQuery
{
    /// <summary>Functions the service evaluates by loading every item ("Overview of indexing": UPPER and LOWER are its
    /// examples of a full scan).</summary>
    private static readonly HashSet<string> FullScanFunctions = new(StringComparer.OrdinalIgnoreCase) { "UPPER", "LOWER" };

    private static readonly HashSet<string> SpatialFunctions = new(StringComparer.OrdinalIgnoreCase) { "ST_DISTANCE", "ST_WITHIN", "ST_INTERSECTS" };

    /// <summary>The ORDER BY items (empty without ORDER BY); the grammar admits only document paths there.</summary>
    public IReadOnlyList<OrderByPath> OrderByPaths =>
        [.. _model.OrderBy.Select(static o => new OrderByPath(PathOf(o.Path) ?? [], o.Descending))];

    /// <summary>
    /// Whether the container's indexes can serve the WHERE clause, so that the query loads only the items that match
    /// rather than every item in scope. As "Overview of indexing" describes the engine: it is enough that one top-level
    /// AND term uses an index; a term does when every document path it reads is range-indexed (spatial functions: the
    /// path has a spatial index) and it calls no function that needs the whole item (UPPER, LOWER). No WHERE clause:
    /// true (every item in scope is a result anyway).
    /// </summary>
    /// <param name="rangeIndexed">Whether a path (as in <see cref="OrderByPath"/>) has a range index.</param>
    /// <param name="spatiallyIndexed">Whether a path has a spatial index.</param>
    public bool FilterUsesIndex(Func<IReadOnlyList<string>, bool> rangeIndexed, Func<IReadOnlyList<string>, bool> spatiallyIndexed)
    {
        ArgumentNullException.ThrowIfNull(rangeIndexed);
        ArgumentNullException.ThrowIfNull(spatiallyIndexed);
        return _model.Where is null || Flatten<AndExpr>(_model.Where).Any(term => Served(term, rangeIndexed, spatiallyIndexed) == true);
    }

    /// <summary>True when an index serves the term, false when it cannot, null when the term reads no document path.</summary>
    private static bool? Served(Expr expr, Func<IReadOnlyList<string>, bool> rangeIndexed, Func<IReadOnlyList<string>, bool> spatiallyIndexed)
    {
        if (PathOf(expr) is { } path)
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
                var paths = function.Args.Select(PathOf).Where(static p => p is { Count: > 0 }).ToList();
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

    /// <summary>The document path an expression reads (<c>c.a.b</c>, <c>c["a"][0]</c>), or null when it is not one.</summary>
    private static List<string>? PathOf(Expr expr)
    {
        switch (expr)
        {
            case RootExpr:
                return [];
            case MemberExpr member when PathOf(member.Target) is { } target:
                target.Add(member.Name);
                return target;
            case IndexExpr { Index: ConstantExpr constant } index when PathOf(index.Target) is { } target:
                if (constant.Value.Kind == QKind.String)
                {
                    target.Add(constant.Value.GetString());
                    return target;
                }

                target.Add("[]");
                return target;
            default:
                return null;
        }
    }
}
