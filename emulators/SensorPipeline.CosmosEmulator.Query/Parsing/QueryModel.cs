namespace SensorPipeline.CosmosEmulator.Query.Parsing;

/// <summary>One output property of a non-VALUE select list.</summary>
internal sealed record Projection(string Name, Expr Expr, string Text = "");

/// <summary>Source texts of the clauses a rewritten query repeats (null when absent).</summary>
internal sealed record QueryText(string? Top, string? Value, string? From, string? Where);

internal sealed record OrderByItem(Expr Path, bool Descending, string Text);

/// <summary>A parsed query, checked and ready to run.</summary>
internal sealed class QueryModel
{
    public bool SelectStar { get; init; }

    /// <summary>The expression of <c>SELECT VALUE expr</c>; null otherwise.</summary>
    public Expr? ValueExpr { get; init; }

    public IReadOnlyList<Projection> Projections { get; init; } = [];

    public Expr? Top { get; init; }

    /// <summary>The FROM alias; null for a query without FROM (evaluated once, over no document).</summary>
    public string? Alias { get; init; }

    public Expr? Where { get; init; }

    public IReadOnlyList<OrderByItem> OrderBy { get; init; } = [];

    public Expr? Offset { get; init; }

    public Expr? Limit { get; init; }

    public IReadOnlyList<AggregateExpr> Aggregates { get; init; } = [];

    /// <summary>The clauses' source texts.</summary>
    public QueryText Text { get; init; } = new(null, null, null, null);

    /// <summary>Parameter names by slot, '@' included.</summary>
    public IReadOnlyList<string> Parameters { get; init; } = [];
}
