namespace SensorPipeline.CosmosEmulator.Query.Tests;

public class SelectTests
{
    private static readonly string[] Docs =
    [
        """{"id":"1","deviceId":"d1","temp":21.5,"tags":["a","b"],"loc":{"city":"Oslo"},"_ts":100}""",
        """{"id":"2","deviceId":"d2","temp":-3,"tags":[],"loc":{"city":"Bergen"},"_ts":200}""",
        """{"id":"3","deviceId":"d1","temp":null,"_ts":300}""",
    ];

    [Fact]
    public void Query_SelectStar_EachDocumentUnchanged()
    {
        var items = Run.Query("SELECT * FROM c", Docs);
        Assert.Equal(Docs, items);
    }

    [Fact]
    public void Query_WhereWithParameters_Filters()
    {
        var items = Run.Query("SELECT VALUE c.id FROM c WHERE c.deviceId = @d AND c._ts > @after", Docs, ("@d", "\"d1\""), ("@after", "150"));
        Assert.Equal(["\"3\""], items);
    }

    [Fact]
    public void Query_Projection_NamedFromPathsAliasesAndPositions()
    {
        var items = Run.Query("SELECT c.id, c.loc.city AS town, c[\"deviceId\"], c.temp * 2, c.tags[0] FROM c WHERE c.id = '1'", Docs);
        Assert.Equal(Run.Compact("""{"id":"1","town":"Oslo","deviceId":"d1","$1":43,"$2":"a"}"""), Assert.Single(items));
    }

    [Fact]
    public void Query_ProjectionOfUndefinedFields_OmittedRowsKept()
    {
        var items = Run.Query("SELECT c.loc.city, c.missing FROM c", Docs);
        Assert.Equal(["""{"city":"Oslo"}""", """{"city":"Bergen"}""", "{}"], items);
    }

    [Fact]
    public void SelectValue_OfUndefined_OmitsTheRow()
    {
        var items = Run.Query("SELECT VALUE c.loc.city FROM c", Docs);
        Assert.Equal(["\"Oslo\"", "\"Bergen\""], items);
    }

    [Fact]
    public void Query_SelectRootAlias_DocumentUnderItsName()
    {
        var items = Run.Query("SELECT r FROM root r WHERE r.id = '2'", Docs);
        Assert.Equal("{\"r\":" + Docs[1] + "}", Assert.Single(items));
    }

    [Fact]
    public void Query_ObjectAndArrayLiterals_BuiltPerRow()
    {
        var items = Run.Query("SELECT VALUE {\"k\": c.id, list: [c.temp, 'x', true, null]} FROM c WHERE c.id = '1'", Docs);
        Assert.Equal("""{"k":"1","list":[21.5,"x",true,null]}""", Assert.Single(items));
    }

    [Fact]
    public void Execute_Top_StopsReadingOnceSatisfied()
    {
        var result = Run.Execute("SELECT TOP 1 c.id FROM c", Docs);
        Assert.Single(result.Items);
        Assert.Equal(1, result.DocumentsScanned);
    }

    [Fact]
    public void Query_TopAndOffsetLimitFromParameters_Applied()
    {
        Assert.Equal(2, Run.Query("SELECT TOP @n * FROM c", Docs, ("@n", "2")).Count);
        Assert.Equal(["\"2\"", "\"3\""], Run.Query("SELECT VALUE c.id FROM c OFFSET 1 LIMIT 5", Docs));
        Assert.Equal(["\"2\""], Run.Query("SELECT VALUE c.id FROM c OFFSET @o LIMIT @l", Docs, ("@o", "1"), ("@l", "1")));
    }

    [Fact]
    public void Execute_WithoutFrom_EvaluatesOnce()
    {
        Assert.Equal(["3"], Run.Query("SELECT VALUE 1 + 2", Docs));
        Assert.Equal(0, Run.Execute("SELECT VALUE 1", Docs).DocumentsScanned);
    }

    [Fact]
    public void Query_MixedCase_KeywordsMatchPropertyNamesDoNot()
    {
        var items = Run.Query("select value c.id from c where c.DeviceId = 'd1'", Docs);
        Assert.Empty(items);
        Assert.Equal(2, Run.Query("SeLeCt VaLuE c.id FrOm c WhErE c.deviceId = 'd1'", Docs).Count);
    }

    [Fact]
    public void Query_NumberBeyondDouble_KeepsItsText()
    {
        var items = Run.Query("SELECT VALUE c.big FROM c", ["""{"big":12345678901234567890}"""]);
        Assert.Equal("12345678901234567890", Assert.Single(items));
    }

    [Fact]
    public void Query_LineComment_Ignored()
    {
        Assert.Equal(3, Run.Query("SELECT * -- everything\nFROM c", Docs).Count);
    }
}
