namespace SensorPipeline.CosmosEmulator.Query.Tests;

/// <summary>Queries as clients write them: this repository's own, and the shapes the .NET SDK's LINQ provider emits.</summary>
public class ClientQueryTests
{
    private static readonly string[] Docs =
    [
        """{"id":"d1:1","deviceId":"d1","ts":5,"payloadBase64":"AAE=","version":"0005"}""",
        """{"id":"d2:1","deviceId":"d2","ts":9,"payloadBase64":"AQI=","version":"0009"}""",
        """{"id":"d1:2","deviceId":"d1","ts":7,"version":"0007"}""",
    ];

    [Fact]
    public void Query_VerifyDeadLetterProjection_IdAndPayloadPerDocument() =>
        Assert.Equal(
            ["""{"id":"d1:1","payloadBase64":"AAE="}""", """{"id":"d2:1","payloadBase64":"AQI="}""", """{"id":"d1:2"}"""],
            Run.Query("SELECT c.id, c.payloadBase64 FROM c", Docs));

    [Fact]
    public void Query_DeviceIdParameter_OnlyThatDevice() =>
        Assert.Equal(
            ["""{"id":"d1:1"}""", """{"id":"d1:2"}"""],
            Run.Query("SELECT c.id FROM c WHERE c.deviceId = @d", Docs, ("@d", "\"d1\"")));

    [Fact]
    public void Matches_DeviceStateGuardPredicate_OnlyOlderVersions()
    {
        var predicate = SqlQuery.ParsePredicate("FROM c WHERE c.version < '0008'");
        Assert.Equal([true, false, true], Docs.Select(d => predicate.Matches(Run.Utf8(d), [])));
    }

    [Theory]
    [InlineData("SELECT VALUE root FROM root WHERE (root[\"deviceId\"] = \"d1\")", 2)]
    [InlineData("SELECT VALUE root FROM root WHERE ((root[\"ts\"] > 5) AND STARTSWITH(root[\"id\"], \"d\"))", 2)]
    [InlineData("SELECT TOP 1 VALUE root FROM root ORDER BY root[\"ts\"] DESC", 1)]
    [InlineData("SELECT VALUE root FROM root ORDER BY root[\"ts\"] ASC OFFSET 1 LIMIT 1", 1)]
    [InlineData("SELECT VALUE {\"id\": root[\"id\"], \"ts\": root[\"ts\"]} FROM root WHERE IS_DEFINED(root[\"payloadBase64\"])", 2)]
    [InlineData("SELECT VALUE root FROM root WHERE (root[\"deviceId\"] IN (\"d1\", \"d2\"))", 3)]
    [InlineData("SELECT VALUE root FROM root WHERE (LOWER(root[\"deviceId\"]) = \"d2\")", 1)]
    public void Query_LinqProviderShapes_CountAsExpected(string sql, int expectedCount) => Assert.Equal(expectedCount, Run.Query(sql, Docs).Count);

    [Fact]
    public void Query_LinqCountAndMax_Aggregates()
    {
        Assert.Equal(["3"], Run.Query("SELECT VALUE COUNT(1) FROM root", Docs));
        Assert.Equal(["9"], Run.Query("SELECT VALUE MAX(root[\"ts\"]) FROM root", Docs));
    }

    [Fact]
    public void Query_TopAfterValue_Accepted() =>
        Assert.Equal(["\"d1:1\""], Run.Query("SELECT VALUE TOP 1 c.id FROM c", Docs));
}
