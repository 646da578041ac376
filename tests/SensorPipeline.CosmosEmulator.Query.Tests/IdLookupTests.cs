namespace SensorPipeline.CosmosEmulator.Query.Tests;

/// <summary>Which WHERE clauses pin ids (a store answers them from its id lookup), and the keys they give.</summary>
public class IdLookupTests
{
    private static readonly IReadOnlyList<IReadOnlyList<string>> ByDevice = [["deviceId"]];

    private static string[]? Keys(string sql, IReadOnlyList<IReadOnlyList<string>>? keyPaths = null, params (string Name, string Json)[] parameters) =>
        SqlQuery.Parse(sql).FindIdLookup(Run.Parameters(parameters), keyPaths ?? ByDevice)?.Keys
            .Select(k => $"{k.Id}@{k.PartitionKey ?? "any"}").Order(StringComparer.Ordinal).ToArray();

    private static string[] Pinned(string sql, IReadOnlyList<IReadOnlyList<string>>? keyPaths = null, params (string Name, string Json)[] parameters)
    {
        var keys = Keys(sql, keyPaths, parameters);
        Assert.NotNull(keys);
        return keys;
    }

    [Theory]
    [InlineData("SELECT * FROM c WHERE c.id = 'a'", "a@any")]
    [InlineData("SELECT * FROM c WHERE 'a' = c.id", "a@any")]
    [InlineData("SELECT * FROM c WHERE c[\"id\"] = 'a' AND c.n > 3", "a@any")]
    [InlineData("SELECT * FROM root r WHERE r.id IN ('a', 'b', 5, 'a')", "a@any,a@any,b@any")]
    [InlineData("SELECT * FROM c WHERE c.id = 'a' AND c.deviceId = 'd1'", "a@[\"d1\"]")]
    [InlineData("SELECT * FROM c WHERE c.deviceId = null AND c.id IN ('a', 'b')", "a@[null],b@[null]")]
    [InlineData("SELECT * FROM c WHERE c.id = 'a' AND c.deviceId = 7", "a@any")] // numbers: 0 and -0 are equal, keyed apart
    [InlineData("SELECT * FROM c WHERE c.id = 5", "")] // ids are strings: nothing can match
    [InlineData("SELECT * FROM c WHERE c.deviceId = 'd1' AND (c.id = 'a' OR (c.id = 'b' AND c.deviceId = 'd2'))", "a@[\"d1\"],b@[\"d2\"]")]
    [InlineData("SELECT * FROM c WHERE c.n > 1 AND (c.id = 'a' OR c.id IN ('b', 'c'))", "a@any,b@any,c@any")]
    public void FindIdLookup_PinnedIds_Keys(string sql, string expected) =>
        Assert.Equal(expected.Split(',', StringSplitOptions.RemoveEmptyEntries), Pinned(sql));

    [Fact]
    public void FindIdLookup_TheSdkReadManyShape_EachPairKeyedButTheNoneBranch()
    {
        var keys = Pinned(
            """SELECT * FROM c WHERE ( ( c.id = @param_id0 AND c["deviceId"] = @param_pk00 ) OR ( c.id = @param_id1 AND IS_DEFINED(c["deviceId"]) = false ) OR ( c.id = @param_id2 AND c["deviceId"] = @param_pk20 ) )""",
            null, ("@param_id0", "\"r1\""), ("@param_pk00", "\"dev-1\""), ("@param_id1", "\"r2\""), ("@param_id2", "\"r3\""), ("@param_pk20", "\"dév \\\"2\\\"\""));

        Assert.Equal(["r1@[\"dev-1\"]", "r2@any", "r3@[\"d\\u00E9v \\u00222\\u0022\"]"], keys);
    }

    [Fact]
    public void FindIdLookup_HierarchicalKey_PinnedOnlyWhenEveryPathIs()
    {
        IReadOnlyList<IReadOnlyList<string>> paths = [["tenant"], ["site", "id"]];

        Assert.Equal(["a@[\"t\",\"s\"]"], Pinned("SELECT * FROM c WHERE c.id = 'a' AND c.site.id = 's' AND c.tenant = 't'", paths));
        Assert.Equal(["a@any"], Pinned("SELECT * FROM c WHERE c.id = 'a' AND c.tenant = 't'", paths));
    }

    [Fact]
    public void FindIdLookup_KeyedById_TheIdIsTheKey() =>
        Assert.Equal(["a@[\"a\"]", "b@[\"b\"]"], Pinned("SELECT * FROM c WHERE c.id IN ('a', 'b')", [["id"]]));

    [Theory]
    [InlineData("SELECT * FROM c")]
    [InlineData("SELECT * FROM c WHERE c.n = 1")]
    [InlineData("SELECT * FROM c WHERE c.id = 'a' OR c.n = 1")] // a branch without an id: any document may match
    [InlineData("SELECT * FROM c WHERE c.id != 'a'")]
    [InlineData("SELECT * FROM c WHERE c.id NOT IN ('a')")]
    [InlineData("SELECT * FROM c WHERE NOT (c.id = 'a')")]
    [InlineData("SELECT * FROM c WHERE c.id = c.other")]
    [InlineData("SELECT * FROM c WHERE c.id IN ('a', c.other)")]
    [InlineData("SELECT * FROM c WHERE c.child.id = 'a'")]
    [InlineData("SELECT * FROM c WHERE c.id = @missing")]
    [InlineData("SELECT VALUE 1")]
    public void FindIdLookup_ClausesThatDoNotPinIds_None(string sql) =>
        Assert.Null(Keys(sql));
}
