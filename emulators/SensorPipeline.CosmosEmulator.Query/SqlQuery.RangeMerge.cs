using System.Globalization;
using System.Text;

namespace SensorPipeline.CosmosEmulator.Query;

public sealed partial class SqlQuery
{
    /// <summary>The placeholder the SDKs replace with <c>true</c>, or with the filter that resumes an ORDER BY after a
    /// continuation.</summary>
    private const string OrderByFilter = "{documentdb-formattableorderbyquery-filter}";

    /// <summary>True when the results of several partition key ranges need a merge the plan does not describe
    /// (aggregates, OFFSET/LIMIT): across ranges such a query would be answered wrongly, so the store refuses it.</summary>
    public bool NeedsUnplannedMerge => _model.Aggregates.Count > 0 || _model.Offset is not null;

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
        if (NeedsUnplannedMerge || (_model.OrderBy.Count == 0 && _model.Top is null) || _model.Text.From is null)
        {
            WriteQueryPlan(writer, null);
            return;
        }

        var top = _model.Top is null ? (long?)null : TopValue(_model.Top, parameters);
        WriteQueryPlan(writer, new RangeMerge(top, _model.OrderBy.Count == 0 ? null : RewriteOrderBy()));
    }

    /// <summary><c>SELECT [TOP n] c._rid, [{"item": k1}, …] AS orderByItems, &lt;the select list&gt; AS payload FROM …
    /// WHERE (&lt;filter&gt;) AND ({placeholder}) ORDER BY …</c>: the service's form, which this engine runs as an
    /// ordinary query.</summary>
    private string RewriteOrderBy()
    {
        var alias = _model.Alias!;
        var sql = new StringBuilder("SELECT ");
        if (_model.Text.Top is { } top)
        {
            sql.Append("TOP ").Append(top).Append(' ');
        }

        sql.Append(alias).Append("._rid, [");
        sql.AppendJoin(", ", _model.OrderBy.Select(static o => "{\"item\": " + o.Text + "}"));
        sql.Append("] AS orderByItems, ");
        if (_model.SelectStar)
        {
            sql.Append(alias);
        }
        else if (_model.ValueExpr is not null)
        {
            sql.Append(_model.Text.Value);
        }
        else
        {
            sql.Append('{').AppendJoin(", ", _model.Projections.Select(static p => JsonSerializer.Serialize(p.Name) + ": " + p.Text)).Append('}');
        }

        sql.Append(" AS payload FROM ").Append(_model.Text.From).Append(" WHERE ");
        sql.Append(_model.Text.Where is { } where ? $"({where}) AND ({OrderByFilter})" : OrderByFilter);
        sql.Append(" ORDER BY ").AppendJoin(", ", _model.OrderBy.Select(static o => o.Text + (o.Descending ? " DESC" : " ASC")));
        return sql.ToString();
    }

    private static long? TopValue(Expr top, IReadOnlyList<KeyValuePair<string, JsonElement>> parameters)
    {
        var value = top switch
        {
            ConstantExpr constant => constant.Value,
            ParameterExpr parameter => parameters.Where(p => p.Key == parameter.Name).Select(static p => QValue.FromElement(p.Value)).FirstOrDefault(),
            _ => QValue.Undefined,
        };
        return value.Kind == QKind.Number && value.Number >= 0 && value.Number == Math.Floor(value.Number)
            ? (long)Math.Min(value.Number, long.MaxValue)
            : null;
    }

    /// <summary>What the SDK merges: a TOP over the merged result, and the rewritten ORDER BY query (null without one).</summary>
    private sealed record RangeMerge(long? Top, string? RewrittenQuery);
}
