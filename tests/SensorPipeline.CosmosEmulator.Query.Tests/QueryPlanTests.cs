using System.Buffers;
using System.Text.Json;

namespace SensorPipeline.CosmosEmulator.Query.Tests;

public class QueryPlanTests
{
    private static JsonElement Plan(string sql)
    {
        var buffer = new ArrayBufferWriter<byte>();
        using (var writer = new Utf8JsonWriter(buffer))
        {
            SqlQuery.Parse(sql).WriteQueryPlan(writer);
        }

        return JsonDocument.Parse(buffer.WrittenMemory).RootElement;
    }

    [Theory]
    [InlineData("SELECT * FROM c ORDER BY c.ts DESC")]
    [InlineData("SELECT TOP 5 * FROM c")]
    [InlineData("SELECT VALUE COUNT(1) FROM c")]
    [InlineData("SELECT c.id FROM c OFFSET 1 LIMIT 2")]
    public void Plan_AnyQuery_PassThroughOverTheOneRange(string sql)
    {
        var plan = Plan(sql);
        Assert.Equal(2, plan.GetProperty("partitionedQueryExecutionInfoVersion").GetInt32());
        var info = plan.GetProperty("queryInfo");
        Assert.Equal("None", info.GetProperty("distinctType").GetString());
        foreach (var name in new[] { "top", "offset", "limit", "dCountInfo" })
        {
            Assert.Equal(JsonValueKind.Null, info.GetProperty(name).ValueKind);
        }

        foreach (var name in new[] { "orderBy", "orderByExpressions", "groupByExpressions", "groupByAliases", "aggregates" })
        {
            Assert.Equal(0, info.GetProperty(name).GetArrayLength());
        }

        Assert.Empty(info.GetProperty("groupByAliasToAggregateType").EnumerateObject());
        Assert.Equal(string.Empty, info.GetProperty("rewrittenQuery").GetString());
        Assert.False(info.GetProperty("hasNonStreamingOrderBy").GetBoolean());
        var range = Assert.Single(plan.GetProperty("queryRanges").EnumerateArray().ToList());
        Assert.Equal(string.Empty, range.GetProperty("min").GetString());
        Assert.Equal("FF", range.GetProperty("max").GetString());
        Assert.True(range.GetProperty("isMinInclusive").GetBoolean());
        Assert.False(range.GetProperty("isMaxInclusive").GetBoolean());
    }

    [Theory]
    [InlineData("SELECT VALUE COUNT(1) FROM c", true)]
    [InlineData("SELECT COUNT(1) FROM c", false)]
    [InlineData("SELECT * FROM c", false)]
    public void Plan_SelectValue_Reported(string sql, bool expected) =>
        Assert.Equal(expected, Plan(sql).GetProperty("queryInfo").GetProperty("hasSelectValue").GetBoolean());
}
