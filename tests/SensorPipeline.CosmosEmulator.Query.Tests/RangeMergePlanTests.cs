using System.Buffers;
using System.Text.Json;

namespace SensorPipeline.CosmosEmulator.Query.Tests;

/// <summary>The plan for a container served as several partition key ranges: ORDER BY rewritten as the service
/// rewrites it (and the rewrite runs on this engine), TOP as a count the SDK applies; the rest passes through.</summary>
public class RangeMergePlanTests
{
    private static readonly string[] Docs =
    [
        """{"id":"a","n":3,"m":"x","_rid":"r1"}""",
        """{"id":"b","n":1,"m":"y","_rid":"r2"}""",
        """{"id":"c","n":2,"m":"z","_rid":"r3"}""",
    ];

    [Theory]
    [InlineData("SELECT * FROM c ORDER BY c.n DESC",
        "SELECT c._rid, [{\"item\": c.n}] AS orderByItems, c AS payload FROM c WHERE {documentdb-formattableorderbyquery-filter} ORDER BY c.n DESC")]
    [InlineData("SELECT TOP 2 c.id, c.m AS label FROM c WHERE c.n > 0 ORDER BY c.n",
        "SELECT TOP 2 c._rid, [{\"item\": c.n}] AS orderByItems, {\"id\": c.id, \"label\": c.m} AS payload FROM c WHERE (c.n > 0) AND ({documentdb-formattableorderbyquery-filter}) ORDER BY c.n ASC")]
    [InlineData("SELECT VALUE r.id FROM root r ORDER BY r.n, r.m DESC",
        "SELECT r._rid, [{\"item\": r.n}, {\"item\": r.m}] AS orderByItems, r.id AS payload FROM root r WHERE {documentdb-formattableorderbyquery-filter} ORDER BY r.n ASC, r.m DESC")]
    public void Plan_OrderBy_RewrittenAsTheServiceRewritesIt(string sql, string rewritten)
    {
        var info = Plan(sql).GetProperty("queryInfo");
        Assert.Equal(rewritten, info.GetProperty("rewrittenQuery").GetString());
        Assert.Equal(info.GetProperty("orderBy").GetArrayLength(), info.GetProperty("orderByExpressions").GetArrayLength());
    }

    [Fact]
    public void Query_OrderByRewriteWithThePlaceholderReplaced_RunsHere()
    {
        var rewritten = Plan("SELECT c.id FROM c WHERE c.n > 1 ORDER BY c.n DESC").GetProperty("queryInfo").GetProperty("rewrittenQuery").GetString()!;
        var rows = Run.Query(rewritten.Replace("{documentdb-formattableorderbyquery-filter}", "true", StringComparison.Ordinal), Docs);
        Assert.Equal(
            [
                """{"_rid":"r1","orderByItems":[{"item":3}],"payload":{"id":"a"}}""",
                """{"_rid":"r3","orderByItems":[{"item":2}],"payload":{"id":"c"}}""",
            ],
            rows);
    }

    [Fact]
    public void Top_IsACountForTheSdk_FromALiteralOrAParameter()
    {
        Assert.Equal(5, Plan("SELECT TOP 5 * FROM c").GetProperty("queryInfo").GetProperty("top").GetInt64());
        Assert.Equal(7, Plan("SELECT TOP @k * FROM c", ("@k", "7")).GetProperty("queryInfo").GetProperty("top").GetInt64());
        Assert.Equal("", Plan("SELECT TOP 5 * FROM c").GetProperty("queryInfo").GetProperty("rewrittenQuery").GetString());
    }

    [Theory]
    [InlineData("SELECT VALUE COUNT(1) FROM c")]
    [InlineData("SELECT * FROM c OFFSET 1 LIMIT 2")]
    [InlineData("SELECT * FROM c WHERE c.n > 1")]
    public void Plan_QueriesWithoutOrderBy_PassThrough(string sql)
    {
        var info = Plan(sql).GetProperty("queryInfo");
        Assert.Equal(JsonValueKind.Null, info.GetProperty("top").ValueKind);
        Assert.Equal(0, info.GetProperty("orderBy").GetArrayLength());
        Assert.Equal("", info.GetProperty("rewrittenQuery").GetString());
        Assert.Equal(sql.Contains("COUNT", StringComparison.Ordinal) || sql.Contains("OFFSET", StringComparison.Ordinal), SqlQuery.Parse(sql).NeedsUnplannedMerge);
    }

    private static JsonElement Plan(string sql, params (string Name, string Json)[] parameters)
    {
        var values = parameters.Select(p => new KeyValuePair<string, JsonElement>(p.Name, JsonDocument.Parse(p.Json).RootElement)).ToList();
        var buffer = new ArrayBufferWriter<byte>();
        using (var writer = new Utf8JsonWriter(buffer))
        {
            SqlQuery.Parse(sql).WriteQueryPlanAcrossRanges(writer, values);
        }

        return JsonDocument.Parse(buffer.WrittenMemory).RootElement;
    }
}
