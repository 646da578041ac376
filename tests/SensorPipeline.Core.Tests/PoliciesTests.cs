using FsCheck;
using FsCheck.Fluent;
using SensorPipeline.Core.DeviceStates;
using SensorPipeline.Core.Policies;

namespace SensorPipeline.Core.Tests;

public class PoliciesTests
{
    [Fact]
    public void StaleBy_AtAndAroundMaxAge_StaleOnlyPastIt()
    {
        var policy = new StalenessPolicy(TimeSpan.FromMinutes(5));
        const long enqueued = 1_000_000;
        Assert.Null(policy.StaleBy(enqueued, enqueued));
        Assert.Null(policy.StaleBy(enqueued, enqueued + 300_000)); // exactly max age: still fresh
        Assert.Equal(1, policy.StaleBy(enqueued, enqueued + 300_001));
        Assert.Null(policy.StaleBy(enqueued, enqueued - 5_000)); // enqueued "in the future" (clock skew): fresh
    }

    [Fact]
    public void IsStale_InjectedClockPastMaxAge_True()
    {
        var clock = new TestClock(Builders.Observed);
        var policy = new StalenessPolicy(StalenessPolicy.DefaultMaxAge);
        var enqueued = Builders.Observed;
        Assert.False(policy.IsStale(enqueued, clock));
        clock.Advance(TimeSpan.FromMinutes(5) + TimeSpan.FromMilliseconds(1));
        Assert.True(policy.IsStale(enqueued, clock));
    }

    [Fact]
    public void Constructor_ZeroMaxAge_Throws() =>
        Assert.Throws<ArgumentOutOfRangeException>(() => new StalenessPolicy(TimeSpan.Zero));

    [Fact]
    public void Compare_TwoReadings_ObservedAtFirstThenSequence()
    {
        var t = Builders.Observed;
        Assert.True(NewerWins.Compare(1, t.AddHours(1), 2, t) > 0); // a sequence reset: the later reading wins
        Assert.True(NewerWins.Compare(1, t.AddSeconds(1), 1, t) > 0);
        Assert.Equal(0, NewerWins.Compare(1, t, 1, t));
        Assert.True(NewerWins.Compare(1, t, 2, t) < 0);
    }

    [Fact]
    public void NewerWins_ReadingDatedBeyondTheSkewAfterItsEnqueuedTime_MayNotWin()
    {
        var enqueued = Builders.Observed;
        var skew = NewerWins.DefaultMaxClockSkew;
        Assert.True(NewerWins.MayWin(enqueued.AddMinutes(5), enqueued.ToUnixTimeMilliseconds(), skew));
        Assert.True(NewerWins.MayWin(enqueued.AddDays(-30), enqueued.ToUnixTimeMilliseconds(), skew));
        Assert.False(NewerWins.MayWin(enqueued.AddMinutes(5).AddMilliseconds(1), enqueued.ToUnixTimeMilliseconds(), skew));
    }

    [Fact]
    public void NewerWins_ConfiguredSkew_MovesTheLimit()
    {
        var enqueued = Builders.Observed.ToUnixTimeMilliseconds();
        var twoMinutesAhead = Builders.Observed.AddMinutes(2);
        Assert.True(NewerWins.MayWin(twoMinutesAhead, enqueued, NewerWins.DefaultMaxClockSkew));
        Assert.False(NewerWins.MayWin(twoMinutesAhead, enqueued, TimeSpan.FromMinutes(1)));
        Assert.False(NewerWins.MayWin(Builders.Observed.AddMilliseconds(1), enqueued, TimeSpan.Zero));
        Assert.True(NewerWins.MayWin(Builders.Observed, enqueued, TimeSpan.Zero));
    }

    [Fact]
    public void DefaultMaxClockSkew_NotConfigured_FiveMinutes() =>
        Assert.Equal(TimeSpan.FromMinutes(5), NewerWins.DefaultMaxClockSkew);

    [Fact]
    public void EnvelopeProcessor_NegativeClockSkew_Throws() =>
        Assert.Throws<ArgumentOutOfRangeException>(() =>
            new Processing.EnvelopeProcessor(SensorKind.Weather, "weather-processor", new StalenessPolicy(StalenessPolicy.DefaultMaxAge), maxClockSkew: TimeSpan.FromSeconds(-1)));

    [Theory]
    [InlineData(269_999, false)] // younger than max age − window
    [InlineData(270_000, false)] // exactly at it: not yet
    [InlineData(270_001, true)]
    [InlineData(400_000, true)] // stale already: still past the window's start
    public void IsWithinOfMaxAge_AgeAroundTheWindowStart_TrueOnlyPastIt(long ageMs, bool expected)
    {
        var policy = new StalenessPolicy(TimeSpan.FromMinutes(5));

        Assert.Equal(expected, policy.IsWithinOfMaxAge(1_000_000, 1_000_000 + ageMs, TimeSpan.FromSeconds(30)));
    }

    [Fact]
    public void VersionKey_FixedWidth_TicksThenSequence()
    {
        var at = new DateTimeOffset(2026, 11, 26, 12, 0, 0, TimeSpan.Zero);

        Assert.Equal($"{at.UtcTicks:D19}.{42:D20}", NewerWins.VersionKey(42, at));
        Assert.Equal(40, NewerWins.VersionKey(ulong.MaxValue, DateTimeOffset.MaxValue).Length);
        Assert.Equal(40, NewerWins.VersionKey(0, DateTimeOffset.MinValue).Length);
    }

    [Fact]
    public void VersionKey_AnyTwoReadings_OrdinalOrderEqualsNewerWinsOrder()
    {
        var gen =
            from s1 in ArbMap.Default.GeneratorFor<ulong>()
            from s2 in Gen.OneOf(Gen.Constant(s1), ArbMap.Default.GeneratorFor<ulong>())
            from t1 in Gen.Choose(0, int.MaxValue)
            from t2 in Gen.OneOf(Gen.Constant(t1), Gen.Choose(0, int.MaxValue))
            select (s1, s2, DateTimeOffset.FromUnixTimeSeconds(t1), DateTimeOffset.FromUnixTimeSeconds(t2));
        Prop.ForAll(gen.ToArbitrary(), t =>
            Math.Sign(string.CompareOrdinal(NewerWins.VersionKey(t.s1, t.Item3), NewerWins.VersionKey(t.s2, t.Item4)))
            == Math.Sign(NewerWins.Compare(t.s1, t.Item3, t.s2, t.Item4))).QuickCheckThrowOnFailure();
    }
}
