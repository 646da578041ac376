namespace SensorPipeline.CosmosEmulator.Query.Tests;

public class OrderByTests
{
    [Fact]
    public void OrderBy_MixedTypes_UndefinedNullBooleansNumbersStringsArraysObjects()
    {
        string[] docs =
        [
            """{"id":"str","v":"b"}""",
            """{"id":"num2","v":10}""",
            """{"id":"obj","v":{"a":1}}""",
            """{"id":"true","v":true}""",
            """{"id":"undef"}""",
            """{"id":"arr","v":[1]}""",
            """{"id":"null","v":null}""",
            """{"id":"false","v":false}""",
            """{"id":"num1","v":-1.5}""",
            """{"id":"str0","v":"a"}""",
        ];
        var ascending = Run.Query("SELECT VALUE c.id FROM c ORDER BY c.v", docs);
        Assert.Equal(
            ["\"undef\"", "\"null\"", "\"false\"", "\"true\"", "\"num1\"", "\"num2\"", "\"str0\"", "\"str\"", "\"arr\"", "\"obj\""],
            ascending);
        var descending = Run.Query("SELECT VALUE c.id FROM c ORDER BY c.v DESC", docs);
        Assert.Equal(ascending.Reverse(), descending);
    }

    [Fact]
    public void Ties_KeepDocumentOrder_AndSecondKeyBreaksThem()
    {
        string[] docs = ["""{"id":"a","g":1,"t":2}""", """{"id":"b","g":0,"t":5}""", """{"id":"c","g":1,"t":1}""", """{"id":"d","g":1,"t":1}"""];
        Assert.Equal(["\"b\"", "\"a\"", "\"c\"", "\"d\""], Run.Query("SELECT VALUE c.id FROM c ORDER BY c.g", docs));
        Assert.Equal(["\"b\"", "\"c\"", "\"d\"", "\"a\""], Run.Query("SELECT VALUE c.id FROM c ORDER BY c.g ASC, c.t ASC", docs));
        Assert.Equal(["\"a\"", "\"c\"", "\"d\"", "\"b\""], Run.Query("SELECT VALUE c.id FROM c ORDER BY c.g DESC, c.t DESC", docs));
    }

    [Fact]
    public void OrderBy_WithTopAndOffset_AppliedAfterSorting()
    {
        var docs = Enumerable.Range(0, 50).Select(i => $$"""{"id":"{{i}}","ts":{{(i * 37) % 50}}}""").ToList();
        var top = Run.Query("SELECT TOP 3 VALUE c.ts FROM c ORDER BY c.ts DESC", docs);
        Assert.Equal(["49", "48", "47"], top);
        var page = Run.Query("SELECT VALUE c.ts FROM c ORDER BY c.ts OFFSET 10 LIMIT 3", docs);
        Assert.Equal(["10", "11", "12"], page);
        var result = Run.Execute("SELECT TOP 3 VALUE c.ts FROM c ORDER BY c.ts DESC", docs);
        Assert.Equal(50, result.DocumentsScanned);
    }

    [Fact]
    public void OrderBy_BoundedAndUnbounded_Agree()
    {
        var random = new Random(7);
        var docs = Enumerable.Range(0, 500).Select(i => $$"""{"id":"{{i}}","v":{{random.Next(100)}}}""").ToList();
        var all = Run.Query("SELECT VALUE c.id FROM c ORDER BY c.v DESC", docs);
        var top = Run.Query("SELECT TOP 25 VALUE c.id FROM c ORDER BY c.v DESC", docs);
        Assert.Equal(all.Take(25), top);
        var page = Run.Query("SELECT VALUE c.id FROM c ORDER BY c.v DESC OFFSET 40 LIMIT 20", docs);
        Assert.Equal(all.Skip(40).Take(20), page);
        Assert.Empty(Run.Query("SELECT TOP 0 * FROM c ORDER BY c.v", docs));
        Assert.Empty(Run.Query("SELECT * FROM c ORDER BY c.v OFFSET 3 LIMIT 0", docs));
        Assert.Equal(all.Skip(1), Run.Query("SELECT VALUE c.id FROM c ORDER BY c.v DESC OFFSET 1 LIMIT 9000000000000000000", docs));
        Assert.Empty(Run.Query("SELECT VALUE c.id FROM c ORDER BY c.v OFFSET 1000000000000000000 LIMIT 9000000000000000000", docs));
    }

    [Fact]
    public void OrderBy_Strings_SortOrdinally()
    {
        string[] docs = ["""{"s":"b"}""", """{"s":"B"}""", """{"s":"a"}""", """{"s":"A"}"""];
        Assert.Equal(["\"A\"", "\"B\"", "\"a\"", "\"b\""], Run.Query("SELECT VALUE c.s FROM c ORDER BY c.s", docs));
    }
}
