namespace SensorPipeline.EndToEnd.Tests;

/// <summary>Where loadgen's readings ended, from verify's verdict (pure: no stack started): what the backlog bench counts
/// as lost.</summary>
[Trait("Category", "Fast")]
public sealed class ReadingAccountTests
{
    private static JsonElement Verdict(long sent, long written, long archived, long duplicated, long missing, int injectedSent = 0, int deadLettered = 0) =>
        JsonDocument.Parse($$"""
            {"sent":{{sent}},"written":{{written}},"archived":{{archived}},"duplicated":{{duplicated}},"missing":{{missing}},
             "injectedSent":{{injectedSent}},"deadLettered":{{deadLettered}},"devices":200,"deviceMismatches":0}
            """).RootElement.Clone();

    [Fact]
    public void FromVerdict_EveryReadingLiveOrArchived_NothingLostAndBalanced()
    {
        var account = ReadingAccount.FromVerdict(Verdict(1_000_000, 999_000, 1_000, 0, 0, injectedSent: 3, deadLettered: 3));

        Assert.Equal(1_000_000, account.Landed);
        Assert.Equal(0, account.Lost);
        Assert.True(account.Balanced);
    }

    [Fact]
    public void FromVerdict_ReadingsInNeitherContainer_CountedLost()
    {
        var account = ReadingAccount.FromVerdict(Verdict(1_000, 990, 3, 0, 7));

        Assert.Equal(7, account.Lost);
        Assert.True(account.Balanced);
    }

    [Fact]
    public void FromVerdict_InjectedEventNotDeadLettered_CountedLost()
    {
        var account = ReadingAccount.FromVerdict(Verdict(500, 500, 0, 0, 0, injectedSent: 3, deadLettered: 2));

        Assert.Equal(1, account.Lost);
    }

    [Fact]
    public void FromVerdict_ReadingInBothContainers_LandedOnceNotLost()
    {
        var account = ReadingAccount.FromVerdict(Verdict(100, 98, 1, 1, 0));

        Assert.Equal(100, account.Landed);
        Assert.Equal(0, account.Lost);
        Assert.Equal(1, account.Duplicated);
    }

    [Fact]
    public void FromVerdict_MissingCountDisagreesWithTheSum_NotBalanced()
    {
        // 100 sent, 95 landed, yet verify says 0 missing: its counts contradict each other.
        var account = ReadingAccount.FromVerdict(Verdict(100, 95, 0, 0, 0));

        Assert.Equal(5, account.Lost);
        Assert.False(account.Balanced);
    }

    [Fact]
    public void FromVerdict_CountAbsent_ThrowsNamingIt()
    {
        using var partial = JsonDocument.Parse("""{"sent":10,"written":10}""");

        var error = Assert.Throws<InvalidOperationException>(() => ReadingAccount.FromVerdict(partial.RootElement));
        Assert.Contains("'archived'", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void FromVerdict_NoVerdict_ThrowsSayingSo()
    {
        var error = Assert.Throws<InvalidOperationException>(() => ReadingAccount.FromVerdict(default));
        Assert.Contains("no verdict", error.Message, StringComparison.Ordinal);
    }
}
