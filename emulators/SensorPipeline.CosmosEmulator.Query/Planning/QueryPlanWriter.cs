using System.Text;
using SensorPipeline.CosmosEmulator.Query.Parsing;

namespace SensorPipeline.CosmosEmulator.Query.Planning;

/// <summary>The query plans the SDKs ask for: the pass-through plan over one partition key range, and the plan that
/// tells them how to merge ORDER BY and TOP across several.</summary>
internal static class QueryPlanWriter
{
    /// <summary>The placeholder the SDKs replace with <c>true</c>, or with the filter that resumes an ORDER BY after a
    /// continuation.</summary>
    private const string OrderByFilter = "{documentdb-formattableorderbyquery-filter}";

    /// <summary>The whole key space of an emulator with one partition key range.</summary>
    private const string MinEffectivePartitionKey = "";
    private const string MaxEffectivePartitionKey = "FF";

    /// <summary>Whether the results of several ranges need a merge the plan does not describe (see
    /// <see cref="SqlQuery.NeedsUnplannedMerge"/>).</summary>
    public static bool NeedsUnplannedMerge(QueryModel model) => model.Aggregates.Count > 0 || model.Offset is not null;

    /// <summary>The plan across ranges (see <see cref="SqlQuery.WriteQueryPlanAcrossRanges"/>).</summary>
    public static void WriteAcrossRanges(Utf8JsonWriter writer, QueryModel model, IReadOnlyList<KeyValuePair<string, JsonElement>> parameters)
    {
        if (NeedsUnplannedMerge(model) || (model.OrderBy.Count == 0 && model.Top is null) || model.Text.From is null)
        {
            Write(writer, model, null);
            return;
        }

        var top = model.Top is null ? (long?)null : TopValue(model.Top, parameters);
        Write(writer, model, new RangeMerge(top, model.OrderBy.Count == 0 ? null : RewriteOrderBy(model)));
    }

    /// <summary>The plan with <paramref name="merge"/>: what the SDK must do to merge the results of several ranges
    /// (null: nothing, the pass-through plan of <see cref="SqlQuery.WriteQueryPlan(Utf8JsonWriter)"/>).</summary>
    public static void Write(Utf8JsonWriter writer, QueryModel model, RangeMerge? merge)
    {
        ArgumentNullException.ThrowIfNull(writer);
        writer.WriteStartObject();
        writer.WriteNumber("partitionedQueryExecutionInfoVersion", 2);
        writer.WriteStartObject("queryInfo");
        writer.WriteString("distinctType", "None");
        if (merge?.Top is { } top)
        {
            writer.WriteNumber("top", top);
        }
        else
        {
            writer.WriteNull("top");
        }

        writer.WriteNull("offset");
        writer.WriteNull("limit");
        writer.WriteStartArray("orderBy");
        foreach (var item in merge is null ? [] : model.OrderBy)
        {
            writer.WriteStringValue(item.Descending ? "Descending" : "Ascending");
        }

        writer.WriteEndArray();
        writer.WriteStartArray("orderByExpressions");
        foreach (var item in merge is null ? [] : model.OrderBy)
        {
            writer.WriteStringValue(item.Text);
        }

        writer.WriteEndArray();
        WriteEmptyArray(writer, "groupByExpressions");
        WriteEmptyArray(writer, "groupByAliases");
        WriteEmptyArray(writer, "aggregates");
        writer.WriteStartObject("groupByAliasToAggregateType");
        writer.WriteEndObject();
        writer.WriteString("rewrittenQuery", merge?.RewrittenQuery ?? string.Empty);
        writer.WriteBoolean("hasSelectValue", model.ValueExpr is not null);
        writer.WriteNull("dCountInfo");
        writer.WriteBoolean("hasNonStreamingOrderBy", false);
        writer.WriteEndObject();
        writer.WriteStartArray("queryRanges");
        writer.WriteStartObject();
        writer.WriteString("min", MinEffectivePartitionKey);
        writer.WriteString("max", MaxEffectivePartitionKey);
        writer.WriteBoolean("isMinInclusive", true);
        writer.WriteBoolean("isMaxInclusive", false);
        writer.WriteEndObject();
        writer.WriteEndArray();
        writer.WriteEndObject();
    }

    private static void WriteEmptyArray(Utf8JsonWriter writer, string name)
    {
        writer.WriteStartArray(name);
        writer.WriteEndArray();
    }

    /// <summary><c>SELECT [TOP n] c._rid, [{"item": k1}, …] AS orderByItems, &lt;the select list&gt; AS payload FROM …
    /// WHERE (&lt;filter&gt;) AND ({placeholder}) ORDER BY …</c>: the service's form, which this engine runs as an
    /// ordinary query.</summary>
    private static string RewriteOrderBy(QueryModel model)
    {
        var alias = model.Alias!;
        var sql = new StringBuilder("SELECT ");
        if (model.Text.Top is { } top)
        {
            sql.Append("TOP ").Append(top).Append(' ');
        }

        sql.Append(alias).Append("._rid, [");
        sql.AppendJoin(", ", model.OrderBy.Select(static o => "{\"item\": " + o.Text + "}"));
        sql.Append("] AS orderByItems, ");
        if (model.SelectStar)
        {
            sql.Append(alias);
        }
        else if (model.ValueExpr is not null)
        {
            sql.Append(model.Text.Value);
        }
        else
        {
            sql.Append('{').AppendJoin(", ", model.Projections.Select(static p => JsonSerializer.Serialize(p.Name) + ": " + p.Text)).Append('}');
        }

        sql.Append(" AS payload FROM ").Append(model.Text.From).Append(" WHERE ");
        sql.Append(model.Text.Where is { } where ? $"({where}) AND ({OrderByFilter})" : OrderByFilter);
        sql.Append(" ORDER BY ").AppendJoin(", ", model.OrderBy.Select(static o => o.Text + (o.Descending ? " DESC" : " ASC")));
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
    public sealed record RangeMerge(long? Top, string? RewrittenQuery);
}
