using SensorPipeline.CosmosEmulator.Query.Parsing;

namespace SensorPipeline.CosmosEmulator.Query;

/// <summary>A parsed Cosmos DB for NoSQL query: immutable, safe to cache and to execute from several threads.
/// The supported grammar is in the project README; anything else fails to parse with a <see cref="SqlQueryException"/>.</summary>
public sealed partial class SqlQuery
{
    private readonly QueryModel _model;

    private SqlQuery(string text, QueryModel model)
    {
        Text = text;
        _model = model;
    }

    /// <summary>The query text as given.</summary>
    public string Text { get; }

    /// <summary>True for <c>SELECT VALUE …</c>.</summary>
    public bool HasSelectValue => _model.ValueExpr is not null;

    /// <summary>True when the select list holds COUNT, SUM, MIN, MAX or AVG.</summary>
    public bool HasAggregates => _model.Aggregates.Count > 0;

    /// <summary>True when the query has ORDER BY.</summary>
    public bool HasOrderBy => _model.OrderBy.Count > 0;

    /// <summary>The parameter names the query uses, '@' included.</summary>
    public IReadOnlyList<string> ParameterNames => _model.Parameters;

    /// <summary>Parses a query.</summary>
    /// <exception cref="SqlQueryException">A syntax error or an unsupported construct; the message names it and where.</exception>
    public static SqlQuery Parse(string sql) => new(sql, Parser.ParseQuery(sql));

    /// <summary>Parses a Patch filter predicate such as <c>FROM c WHERE c.version &lt; 'x'</c>.</summary>
    /// <exception cref="SqlQueryException">The text is not a supported predicate.</exception>
    public static SqlPredicate ParsePredicate(string text) => SqlPredicate.Parse(text);

    /// <summary>Runs the query over the documents (stored UTF-8 JSON) with the given parameter values.</summary>
    /// <exception cref="SqlQueryException">A parameter is missing, or TOP/OFFSET/LIMIT got a value that is not a
    /// non-negative integer.</exception>
    /// <exception cref="JsonException">A document is not JSON.</exception>
    public QueryResult Execute(IEnumerable<ReadOnlyMemory<byte>> documents, IReadOnlyList<KeyValuePair<string, JsonElement>> parameters)
    {
        ArgumentNullException.ThrowIfNull(documents);
        using var execution = new QueryExecution(_model, parameters);
        return execution.Run(documents);
    }

    public override string ToString() => Text;
}
