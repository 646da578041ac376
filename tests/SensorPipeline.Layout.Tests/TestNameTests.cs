namespace SensorPipeline.Layout.Tests;

/// <summary>Every test is named Method_Scenario_Expected: the unit under test, the condition, the outcome. A name of
/// four or more parts usually tests several things; split it into one test per behaviour.</summary>
public sealed class TestNameTests
{
    [Fact]
    public void NotFollowing_EveryTestProject_NoTestNamedOtherwise()
    {
        var root = RepoLayout.Current.Root;

        var misnamed = TestNames.NotFollowingUnder(root, "tests");

        Assert.True(misnamed.Count == 0,
            "Name each test Method_Scenario_Expected (three PascalCase parts):" + Environment.NewLine + string.Join(Environment.NewLine, misnamed));
    }

    [Fact]
    public void NotFollowing_FactsAndTheoriesNamedOtherwise_NamedWithFileAndLine()
    {
        const string source = """
            class C
            {
                [Fact] public void Parse_Empty_Throws() { }
                [Xunit.Fact] public void ParseEmptyThrows() { }
                [Theory, InlineData(1)] public void Parse_Empty_Throws_AndLogs(int x) { }
                [Fact(Timeout = 1)] public Task Parse__Throws() => Task.CompletedTask;
                [Obsolete] public void Helper_NotATest_Ignored_Really() { }
                // [Fact] public void Commented_Out() { }
            }
            """;

        var found = TestNames.NotFollowing("c.cs", source).ToList();

        Assert.Equal(["c.cs:4 ParseEmptyThrows", "c.cs:5 Parse_Empty_Throws_AndLogs", "c.cs:6 Parse__Throws"], found);
    }

    [Theory]
    [InlineData("Send_ServerRejects_ExitsNonZero", true)]
    [InlineData("Plan_Rate1000PerSecond_OneThroughputUnit", true)]
    [InlineData("Plan_1000PerSecond_OneThroughputUnit", false)]
    [InlineData("Send_ServerRejects", false)]
    [InlineData("send_ServerRejects_ExitsNonZero", false)]
    [InlineData("Send_ServerRejects_Exits_NonZero", false)]
    [InlineData("Send_1000_ExitsNonZero", false)]
    public void Follows_Name_TrueOnlyForThreePascalCaseParts(string name, bool follows) =>
        Assert.Equal(follows, TestNames.Follows(name));
}
