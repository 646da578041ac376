namespace SensorPipeline.CosmosEmulator.Query.Tests;

/// <summary>Patch filter predicates: the device guard's "older never overwrites newer".</summary>
public class PredicateTests
{
    [Theory]
    [InlineData("""{"id":"d1","Version":"2026-01-02"}""", true)]
    [InlineData("""{"id":"d1","Version":"2026-01-09"}""", false)]
    [InlineData("""{"id":"d1","version":"2026-01-02"}""", false)] // other case: a different property, undefined
    [InlineData("""{"id":"d1","Version":5}""", false)] // number vs string: undefined
    public void Matches_KeepsPropertyCase_AndTreatsUndefinedAsNoMatch(string document, bool expected)
    {
        var predicate = SqlQuery.ParsePredicate("FROM c WHERE c.Version < '2026-01-05'");
        Assert.Equal(expected, predicate.Matches(Run.Utf8(document), []));
    }

    [Fact]
    public void Matches_ParametersAndAnyAlias_Evaluated()
    {
        var predicate = SqlQuery.ParsePredicate("from root r where NOT IS_DEFINED(r.seq) OR r.seq < @seq");
        Assert.True(predicate.Matches(Run.Utf8("""{"seq":3}"""), Run.Parameters(("@seq", "4"))));
        Assert.False(predicate.Matches(Run.Utf8("""{"seq":4}"""), Run.Parameters(("@seq", "4"))));
        Assert.True(predicate.Matches(Run.Utf8("{}"), Run.Parameters(("@seq", "4"))));
    }

    [Theory]
    [InlineData("c.seq < 4", "FROM")]
    [InlineData("FROM c", "WHERE")]
    [InlineData("FROM c WHERE c.seq < 4 ORDER BY c.seq", "unexpected 'ORDER'")]
    [InlineData("SELECT * FROM c WHERE c.seq < 4", "FROM c WHERE")]
    public void ParsePredicate_NotAPredicate_Refused(string text, string says)
    {
        var error = Assert.Throws<SqlQueryException>(() => SqlQuery.ParsePredicate(text));
        Assert.Contains(says, error.Message, StringComparison.Ordinal);
    }
}
