namespace SensorPipeline.CosmosEmulator.Query;

public sealed partial class SqlQuery
{
    /// <summary>The whole key space of an emulator with one partition key range.</summary>
    private const string MinEffectivePartitionKey = "";
    private const string MaxEffectivePartitionKey = "FF";

    /// <summary>Writes the answer to a query-plan request (<c>x-ms-cosmos-is-query-plan-request: True</c>): a
    /// pass-through plan over the one partition key range. It announces no ORDER BY, TOP, OFFSET/LIMIT, aggregate or
    /// DISTINCT, so both SDKs send the query unchanged to the single range and return its pages as they are; this
    /// engine computes the final result there. Why that is correct with one range, with the SDK code it rests on, is
    /// in the project README.</summary>
    public void WriteQueryPlan(Utf8JsonWriter writer) => WriteQueryPlan(writer, null);

    /// <summary>The plan with <paramref name="merge"/>: what the SDK must do to merge the results of several ranges
    /// (null: nothing, the pass-through plan above).</summary>
    private void WriteQueryPlan(Utf8JsonWriter writer, RangeMerge? merge)
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
        foreach (var item in merge is null ? [] : _model.OrderBy)
        {
            writer.WriteStringValue(item.Descending ? "Descending" : "Ascending");
        }

        writer.WriteEndArray();
        writer.WriteStartArray("orderByExpressions");
        foreach (var item in merge is null ? [] : _model.OrderBy)
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
        writer.WriteBoolean("hasSelectValue", HasSelectValue);
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
}
