namespace SensorPipeline.CosmosEmulator.Query.Tests;

public class AggregateTests
{
    private static readonly string[] Docs =
    [
        """{"id":"1","v":10,"g":"x"}""",
        """{"id":"2","v":2.5,"g":"y"}""",
        """{"id":"3","g":"x"}""",
        """{"id":"4","v":-4,"g":"x"}""",
    ];

    [Theory]
    [InlineData("SELECT VALUE COUNT(1) FROM c", "4")]
    [InlineData("SELECT VALUE COUNT(c.v) FROM c", "3")]
    [InlineData("SELECT VALUE SUM(c.v) FROM c", "8.5")]
    [InlineData("SELECT VALUE MIN(c.v) FROM c", "-4")]
    [InlineData("SELECT VALUE MAX(c.v) FROM c", "10")]
    [InlineData("SELECT VALUE AVG(c.v) FROM c", "2.8333333333333335")]
    [InlineData("SELECT VALUE COUNT(1) FROM c WHERE c.g = 'x'", "3")]
    [InlineData("SELECT VALUE MAX(c.g) FROM c", "\"y\"")]
    [InlineData("SELECT VALUE MIN(c.id) FROM c", "\"1\"")]
    public void Query_SelectValueAggregate_OneValue(string sql, string expected) => Assert.Equal([expected], Run.Query(sql, Docs));

    [Fact]
    public void Query_AggregatesWithoutValue_UnnamedOnesNumbered()
    {
        var items = Run.Query("SELECT COUNT(1), MAX(c.v) AS top, SUM(c.v) FROM c", Docs);
        Assert.Equal("""{"$1":4,"top":10,"$2":8.5}""", Assert.Single(items));
    }

    [Fact]
    public void OnNoRows_CountAndSumAreZero_OthersUndefined()
    {
        Assert.Equal(["0"], Run.Query("SELECT VALUE COUNT(1) FROM c WHERE c.g = 'none'", Docs));
        Assert.Equal(["0"], Run.Query("SELECT VALUE SUM(c.v) FROM c WHERE c.g = 'none'", Docs));
        Assert.Empty(Run.Query("SELECT VALUE MAX(c.v) FROM c WHERE c.g = 'none'", Docs));
        Assert.Empty(Run.Query("SELECT VALUE AVG(c.v) FROM c WHERE c.g = 'none'", Docs));
        Assert.Equal(["""{"$1":0}"""], Run.Query("SELECT COUNT(1) FROM c WHERE c.g = 'none'", Docs));
        Assert.Equal(["{}"], Run.Query("SELECT MIN(c.v) AS m FROM c WHERE c.g = 'none'", Docs));
    }

    [Fact]
    public void SumAndAvg_OfANonNumber_AreUndefined()
    {
        Assert.Empty(Run.Query("SELECT VALUE SUM(c.g) FROM c", Docs));
        Assert.Empty(Run.Query("SELECT VALUE AVG(c.g) FROM c", Docs));
    }

    [Fact]
    public void MinMax_OfMixedTypes_FollowTheTypeOrder()
    {
        string[] docs = ["""{"v":"a"}""", """{"v":3}""", """{"v":null}""", """{"v":false}"""];
        Assert.Equal(["null"], Run.Query("SELECT VALUE MIN(c.v) FROM c", docs));
        Assert.Equal(["\"a\""], Run.Query("SELECT VALUE MAX(c.v) FROM c", docs));
    }

    [Fact]
    public void Query_AggregatesNestedAsTheSdksRewriteThem_Evaluated()
    {
        Assert.Equal(["""[{"item":4}]"""], Run.Query("SELECT VALUE [{\"item\": COUNT(1)}] FROM c", Docs));
        Assert.Equal(
            ["""[{"item":{"sum":8.5,"count":3}}]"""],
            Run.Query("SELECT VALUE [{\"item\": {\"sum\": SUM(c.v), \"count\": COUNT(c.v)}}]\nFROM c", Docs));
        Assert.Equal(
            ["""{"payload":{"$1":{"item":-4}}}"""],
            Run.Query("SELECT {\"$1\": {\"item\": MIN(c.v)}} AS payload FROM c", Docs));
        Assert.Equal(["5"], Run.Query("SELECT VALUE COUNT(1) + 1 FROM c", Docs));
    }

    [Fact]
    public void AggregateQuery_ScansEveryDocument_AndTopZeroReturnsNothing()
    {
        Assert.Equal(4, Run.Execute("SELECT VALUE COUNT(1) FROM c", Docs).DocumentsScanned);
        Assert.Empty(Run.Query("SELECT TOP 0 VALUE COUNT(1) FROM c", Docs));
    }
}
