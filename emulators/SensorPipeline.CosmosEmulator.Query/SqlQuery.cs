using SensorPipeline.CosmosEmulator.Query.Parsing;
using SensorPipeline.CosmosEmulator.Query.Planning;

namespace SensorPipeline.CosmosEmulator.Query;

/// <summary>A parsed Cosmos DB for NoSQL query: immutable, safe to cache and to execute from several threads.
/// The supported grammar is in the project README; anything else fails to parse with a <see cref="SqlQueryException"/>.
/// What the store asks of a query (its plans, the ids it pins, its spatial box, the indexes it uses) is worked out by the
/// planners in Planning/.</summary>
public sealed class SqlQuery
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

    /// <summary>Writes the answer to a query-plan request (<c>x-ms-cosmos-is-query-plan-request: True</c>): a
    /// pass-through plan over the one partition key range. It announces no ORDER BY, TOP, OFFSET/LIMIT, aggregate or
    /// DISTINCT, so both SDKs send the query unchanged to the single range and return its pages as they are; this
    /// engine computes the final result there. Why that is correct with one range, with the SDK code it rests on, is
    /// in the project README.</summary>
    public void WriteQueryPlan(Utf8JsonWriter writer) => QueryPlanWriter.Write(writer, _model, null);

    /// <summary>True when the results of several partition key ranges need a merge the plan does not describe
    /// (aggregates, OFFSET/LIMIT): across ranges such a query would be answered wrongly, so the store refuses it.</summary>
    public bool NeedsUnplannedMerge => QueryPlanWriter.NeedsUnplannedMerge(_model);

    /// <summary>
    /// Writes the query plan for a container served as several partition key ranges: the SDK sends the query to each
    /// range and merges their results as the plan says. ORDER BY is planned as the service plans it — each range runs a
    /// rewritten query returning <c>{_rid, orderByItems: [{item}], payload}</c> in order, the SDK merges by the items —
    /// and TOP as a count the SDK applies to the merged result. Anything else (aggregates, OFFSET/LIMIT) gets the
    /// pass-through plan; the store refuses such a query across ranges (<see cref="NeedsUnplannedMerge"/>).
    /// </summary>
    /// <param name="writer">Where the plan goes.</param>
    /// <param name="parameters">The request's parameters (a TOP may be one).</param>
    public void WriteQueryPlanAcrossRanges(Utf8JsonWriter writer, IReadOnlyList<KeyValuePair<string, JsonElement>> parameters)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        QueryPlanWriter.WriteAcrossRanges(writer, _model, parameters);
    }

    /// <summary>
    /// A box that holds every Point the WHERE clause can match, when one of its top-level AND terms is
    /// <c>ST_DISTANCE(c.path, point) &lt; r</c> (or <c>&lt;=</c>, either argument order, or <c>r &gt; ST_DISTANCE(…)</c>)
    /// or <c>ST_WITHIN(c.path, polygon)</c> with a point, radius and polygon that do not depend on the document (constants
    /// or parameters). Null when there is no such term, or when the box would cross a pole or the antimeridian (the
    /// store then scans).
    /// </summary>
    public SpatialFilter? FindSpatialFilter(IReadOnlyList<KeyValuePair<string, JsonElement>> parameters) =>
        _model.Where is null || _model.Alias is null ? null : SpatialFilters.Find(_model.Where, _model.Parameters, parameters);

    /// <summary>
    /// The ids the WHERE clause pins, when a top-level AND term is <c>c.id = v</c> or <c>c.id IN (v, …)</c> (v a constant
    /// or a parameter), or is a disjunction each of whose branches pins ids that way — the shape of the SDKs' ReadMany,
    /// <c>(c.id = @id0 AND c["deviceId"] = @pk00) OR (…)</c>. A key carries its branch's partition key when that branch
    /// (or the enclosing conjunction) also equates every path of <paramref name="partitionKeyPaths"/> with a string,
    /// boolean or null (a path <c>/id</c> is pinned by the id itself). Null when no term pins ids (the store scans), or when a parameter is missing (the execution
    /// reports it).
    /// </summary>
    /// <param name="parameters">The request's parameter values.</param>
    /// <param name="partitionKeyPaths">The container's partition key paths as property names (<c>/deviceId</c> →
    /// <c>["deviceId"]</c>).</param>
    public IdLookup? FindIdLookup(IReadOnlyList<KeyValuePair<string, JsonElement>> parameters, IReadOnlyList<IReadOnlyList<string>> partitionKeyPaths)
    {
        ArgumentNullException.ThrowIfNull(partitionKeyPaths);
        return IdLookups.Find(_model, parameters, partitionKeyPaths);
    }

    /// <summary>The ORDER BY items (empty without ORDER BY); the grammar admits only document paths there.</summary>
    public IReadOnlyList<OrderByPath> OrderByPaths => IndexServing.OrderByPaths(_model);

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
        return IndexServing.FilterUsesIndex(_model.Where, rangeIndexed, spatiallyIndexed);
    }

    public override string ToString() => Text;
}
