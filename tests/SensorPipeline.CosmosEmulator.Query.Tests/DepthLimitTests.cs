namespace SensorPipeline.CosmosEmulator.Query.Tests;

/// <summary>Expressions nested or chained deeper than the engine's limits are refused with a clear message (a 400 at the
/// gateway) — before any recursion over them could exhaust the stack, which .NET cannot catch and which would end the
/// emulator's process. What stays under the limits, such as the SDK's ReadMany query, still runs.</summary>
public class DepthLimitTests
{
    public static TheoryData<string, string> DeepQueries => new()
    {
        { "6,000 nested parentheses", "SELECT * FROM c WHERE " + new string('(', 6000) + "c.n = 1" + new string(')', 6000) },
        { "10,000 NOTs", "SELECT * FROM c WHERE " + string.Concat(Enumerable.Repeat("NOT ", 10_000)) + "c.b" },
        { "10,000 unary minuses", "SELECT VALUE " + string.Concat(Enumerable.Repeat("- ", 10_000)) + "1 FROM c" }, // "--" would open a comment
        { "5,000 nested arrays", "SELECT VALUE " + new string('[', 5000) + new string(']', 5000) + " FROM c" },
        { "a chain of 100,000 additions", "SELECT VALUE " + string.Join("+", Enumerable.Repeat("1", 100_000)) + " FROM c" },
        { "a chain of 50,000 property accesses", "SELECT VALUE c" + string.Concat(Enumerable.Repeat(".a", 50_000)) + " FROM c" },
    };

    [Theory]
    [MemberData(nameof(DeepQueries))]
    public void Parse_RefusesADeepExpression_WithAClearMessage(string what, string sql)
    {
        var error = Assert.Throws<SqlQueryException>(() => SqlQuery.Parse(sql));
        Assert.Contains("deep", error.Message, StringComparison.Ordinal);
        Assert.True(error.Message.Length < 300, $"{what}: the message should be short, was {error.Message.Length} characters");
    }

    [Fact]
    public void ParsePredicate_RefusesADeepCondition_WithAClearMessage()
    {
        var error = Assert.Throws<SqlQueryException>(() => SqlQuery.ParsePredicate("FROM c WHERE " + new string('(', 6000) + "c.n = 1" + new string(')', 6000)));
        Assert.Contains("deep", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Query_ReadManyOfAThousandPairsOnASmallStack_FindsTheMatch()
    {
        // The .NET SDK's ReadMany sends one query of up to 1,000 (id, partition key) pairs joined by OR: a left-deep
        // tree about 1,000 levels tall. It must stay under the limit, and evaluate on a thread with a 1 MiB stack
        // (ASP.NET Core's request threads have 1.5 MiB on Linux).
        var terms = Enumerable.Range(0, 1000).Select(i => $"(c.id = 'id-{i}' AND c.deviceId = 'dev-{i}')");
        var sql = "SELECT * FROM c WHERE (" + string.Join(" OR ", terms) + ")";
        IReadOnlyList<string>? rows = null;
        var thread = new Thread(() => rows = Run.Query(sql, ["""{"id":"id-999","deviceId":"dev-999"}""", """{"id":"id-5","deviceId":"other"}"""]), 1024 * 1024);
        thread.Start();
        thread.Join();
        Assert.Equal(["""{"id":"id-999","deviceId":"dev-999"}"""], rows!.Select(Run.Compact));
    }

    [Fact]
    public void AChainAtTheHeightLimit_Runs_OnASmallStack()
    {
        // Expr.MaxHeight levels: 2,046 additions and their first operand; evaluated, filtered (with the spatial filter's
        // walk) and planned on a thread with a 1 MiB stack.
        var chain = string.Join("+", Enumerable.Repeat("1", Evaluation.Expr.MaxHeight - 1));
        var shorter = string.Join("+", Enumerable.Repeat("1", Evaluation.Expr.MaxHeight - 3)); // under '<' and '- 1000'

        IReadOnlyList<string>? rows = null, filtered = null;
        var thread = new Thread(() =>
        {
            rows = Run.Query($"SELECT VALUE {chain} FROM c", ["{}"]);
            filtered = Run.Query($"SELECT VALUE c.n FROM c WHERE ST_DISTANCE(c.p, c.q) < {shorter} - 1000", ["""{"n":1,"p":{"type":"Point","coordinates":[0,0]},"q":{"type":"Point","coordinates":[0,0]}}"""]);
            using var plan = new System.Text.Json.Utf8JsonWriter(Stream.Null);
            SqlQuery.Parse($"SELECT * FROM c WHERE c.n < {shorter} ORDER BY c.n").WriteQueryPlan(plan);
        }, 1024 * 1024);
        thread.Start();
        thread.Join();
        Assert.Equal([$"{Evaluation.Expr.MaxHeight - 1}"], rows!);
        Assert.Equal(["1"], filtered!);

        var over = "SELECT VALUE " + string.Join("+", Enumerable.Repeat("1", Evaluation.Expr.MaxHeight + 1)) + " FROM c";
        Assert.Contains("deep", Assert.Throws<SqlQueryException>(() => SqlQuery.Parse(over)).Message, StringComparison.Ordinal);
    }
}
