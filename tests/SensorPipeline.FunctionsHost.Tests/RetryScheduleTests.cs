using SensorPipeline.FunctionsHost.Config;
using SensorPipeline.FunctionsHost.Invocation;

namespace SensorPipeline.FunctionsHost.Tests;

[Trait("Category", "Fast")]
public sealed class RetryScheduleTests
{
    [Theory]
    [InlineData(0, true)]
    [InlineData(2, true)]
    [InlineData(3, false)]
    [InlineData(4, false)]
    public void CanRetry_RetriesSoFar_StopsAtMaxRetryCount(int retriesSoFar, bool expected)
    {
        var schedule = new RetrySchedule(new RetryPolicy(RetryStrategy.FixedDelay, 3, TimeSpan.FromSeconds(1), default, default), new Random(1));
        Assert.Equal(expected, schedule.CanRetry(retriesSoFar));
    }

    [Fact]
    public void CanRetry_MinusOne_RetriesForever()
    {
        var schedule = new RetrySchedule(new RetryPolicy(RetryStrategy.FixedDelay, -1, TimeSpan.FromSeconds(1), default, default), new Random(1));
        Assert.True(schedule.CanRetry(1_000_000));
    }

    [Fact]
    public void NextDelay_FixedDelay_Constant()
    {
        var schedule = new RetrySchedule(new RetryPolicy(RetryStrategy.FixedDelay, 5, TimeSpan.FromSeconds(3), default, default), new Random(1));
        Assert.All(Enumerable.Range(0, 5).Select(_ => schedule.NextDelay()), d => Assert.Equal(TimeSpan.FromSeconds(3), d));
    }

    [Fact]
    public void NextDelay_ExponentialBackoff_GrowsFromMinimumWithinTheBandToMaximum()
    {
        TimeSpan min = TimeSpan.FromSeconds(1), max = TimeSpan.FromSeconds(10);
        var schedule = new RetrySchedule(new RetryPolicy(RetryStrategy.ExponentialBackoff, -1, default, min, max), new Random(42));
        var delays = Enumerable.Range(0, 8).Select(_ => schedule.NextDelay()).ToArray();
        Assert.Equal(min, delays[0]);
        Assert.InRange(delays[1].TotalSeconds, 1 + 0.8, 1 + 1.2);   // min + r·2⁰·min
        Assert.InRange(delays[2].TotalSeconds, 1 + 1.6, 1 + 2.4);   // min + r·2¹·min
        Assert.InRange(delays[3].TotalSeconds, 1 + 3.2, 1 + 4.8);   // min + r·2²·min
        Assert.Equal(max, delays[^1]);
        Assert.All(delays, d => Assert.InRange(d, min, max));
    }
}
