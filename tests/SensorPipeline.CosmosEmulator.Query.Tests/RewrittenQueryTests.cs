namespace SensorPipeline.CosmosEmulator.Query.Tests;

/// <summary>The forms an SDK sends when it plans a query itself (the .NET SDK with its native query-plan library):
/// ORDER BY rewritten to orderByItems/payload with a continuation filter. They are ordinary queries to this engine.</summary>
public class RewrittenQueryTests
{
    private static readonly string[] Docs =
    [
        """{"id":"a","ts":3,"_rid":"r1"}""",
        """{"id":"b","ts":1,"_rid":"r2"}""",
        """{"id":"c","ts":2,"_rid":"r3"}""",
    ];

    [Fact]
    public void OrderByRewrite_WithThePlaceholderUnreplaced_MeansNoFilter()
    {
        const string sql = "SELECT c._rid, [{\"item\": c.ts}] AS orderByItems, c AS payload\nFROM c\nWHERE ({documentdb-formattableorderbyquery-filter})\nORDER BY c.ts";
        var items = Run.Query(sql, Docs);
        Assert.Equal(
            [
                "{\"_rid\":\"r2\",\"orderByItems\":[{\"item\":1}],\"payload\":" + Docs[1] + "}",
                "{\"_rid\":\"r3\",\"orderByItems\":[{\"item\":2}],\"payload\":" + Docs[2] + "}",
                "{\"_rid\":\"r1\",\"orderByItems\":[{\"item\":3}],\"payload\":" + Docs[0] + "}",
            ],
            items);
    }

    [Fact]
    public void Query_OrderByRewriteWithAContinuationFilter_ResumesAfterIt()
    {
        const string sql = "SELECT TOP 10 c._rid, [{\"item\": c.ts}] AS orderByItems, {\"id\": c.id} AS payload FROM c WHERE ((c.ts > 1) OR (c.ts = 1 AND c._rid > \"r2\")) ORDER BY c.ts DESC";
        var items = Run.Query(sql, Docs);
        Assert.Equal(
            [
                """{"_rid":"r1","orderByItems":[{"item":3}],"payload":{"id":"a"}}""",
                """{"_rid":"r3","orderByItems":[{"item":2}],"payload":{"id":"c"}}""",
            ],
            items);
    }
}
