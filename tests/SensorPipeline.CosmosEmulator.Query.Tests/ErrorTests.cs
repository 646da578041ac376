namespace SensorPipeline.CosmosEmulator.Query.Tests;

/// <summary>Queries the engine refuses: the message is the body of the 400 answer, so it must name the construct and,
/// for syntax, where it is.</summary>
public class ErrorTests
{
    [Theory]
    [InlineData("SELECT * FROM c GROUP BY c.g", "GROUP BY is not supported", "column 17")]
    [InlineData("SELECT DISTINCT c.g FROM c", "DISTINCT is not supported", "column 8")]
    [InlineData("SELECT * FROM c JOIN t IN c.tags", "JOIN is not supported", "column 17")]
    [InlineData("SELECT * FROM c WHERE c.s LIKE 'a%'", "LIKE is not supported", "column 27")]
    [InlineData("SELECT * FROM c WHERE EXISTS(SELECT 1)", "EXISTS subqueries are not supported", "column 23")]
    [InlineData("SELECT * FROM c WHERE c.n IN (SELECT 1)", "Subqueries are not supported", "column 31")]
    [InlineData("SELECT udf.f(c.n) FROM c", "User-defined functions are not supported", "column 8")]
    [InlineData("SELECT VALUE REPLICATE(c.s, 2) FROM c", "The function 'REPLICATE' is not supported", "column 14")]
    [InlineData("SELECT VALUE LOWER(c.s, 1) FROM c", "LOWER takes 1 argument(s), not 2", "column 14")]
    [InlineData("SELECT VALUE d.n FROM c", "Identifier 'd' could not be resolved; the FROM alias is 'c'", "column 14")]
    [InlineData("SELECT * FROM c WHERE c.s = 'open", "unterminated string literal", "column 29")]
    [InlineData("SELECT * FROM c ORDER BY LOWER(c.s)", "Unsupported ORDER BY item", "column 26")]
    [InlineData("SELECT * FROM c ORDER BY ST_DISTANCE(c.l, @p)", "Unsupported ORDER BY item", "column 26")]
    [InlineData("SELECT * FROM c WHERE COUNT(1) > 1", "COUNT is only allowed in the SELECT list", "column 23")]
    [InlineData("SELECT VALUE COUNT(MAX(c.n)) FROM c", "Aggregates cannot be nested", "column 20")]
    [InlineData("SELECT VALUE COUNT(*) FROM c", "use COUNT(1)", "column 20")]
    [InlineData("SELECT * FROM c LIMIT 5", "LIMIT needs OFFSET", "column 17")]
    [InlineData("SELECT TOP -1 * FROM c", "TOP takes a non-negative integer", "column 12")]
    [InlineData("SELECT * FROM c WHERE", "expected an expression but found the end of the query", "column 22")]
    [InlineData("SELECT * FROM c WHERE c.n = 1 c.m", "unexpected 'c'", "column 31")]
    [InlineData("DELETE FROM c", "a query starts with SELECT", "column 1")]
    [InlineData("SELECT c.a, c.a FROM c", "Duplicate name 'a'", "column 13")]
    [InlineData("SELECT * FROM c WHERE c.n & 1", "bitwise operator '&' is not supported", "column 27")]
    [InlineData("SELECT * FROM c WHERE c.n = #", "unexpected character '#'", "column 29")]
    public void Parse_Unsupported_RefusedWithAClearMessage(string sql, string says, string where)
    {
        var error = Assert.Throws<SqlQueryException>(() => SqlQuery.Parse(sql));
        Assert.Contains(says, error.Message, StringComparison.Ordinal);
        Assert.Contains(where, error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("SELECT c.id, COUNT(1) FROM c", "needs GROUP BY")]
    [InlineData("SELECT VALUE COUNT(1) FROM c ORDER BY c.n", "needs GROUP BY")]
    public void Parse_AggregatesMixedWithDocumentProperties_Refused(string sql, string says)
    {
        var error = Assert.Throws<SqlQueryException>(() => SqlQuery.Parse(sql));
        Assert.Contains(says, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Parse_MultiLineQuery_ErrorNamesLineAndColumn()
    {
        var error = Assert.Throws<SqlQueryException>(() => SqlQuery.Parse("SELECT *\nFROM c\nGROUP BY c.g"));
        Assert.Contains("line 3, column 1", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Execute_MissingParameter_RefusedNamingIt()
    {
        var query = SqlQuery.Parse("SELECT * FROM c WHERE c.n = @n");
        var error = Assert.Throws<SqlQueryException>(() => query.Execute([Run.Utf8("{}")], Run.Parameters(("@m", "1"))));
        Assert.Contains("@n", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("-1")]
    [InlineData("1.5")]
    [InlineData("\"3\"")]
    public void Execute_TopParameterNotACount_Refused(string value)
    {
        var query = SqlQuery.Parse("SELECT TOP @n * FROM c");
        var error = Assert.Throws<SqlQueryException>(() => query.Execute([Run.Utf8("{}")], Run.Parameters(("@n", value))));
        Assert.Contains("TOP needs a non-negative integer", error.Message, StringComparison.Ordinal);
    }
}
