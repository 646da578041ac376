namespace SensorPipeline.LoadGen.Tests;

[Trait("Category", "Fast")]
public class PacerTests
{
    [Theory]
    [InlineData(1000.0, 50, 500_000)]  // 20 events/s → 50 ms apart
    [InlineData(3.0, 1, 3_333_333)]    // 1/3 s: not a whole number of ticks
    [InlineData(7.0, 50, 71_428_571)]
    public void DueOffset_IsIndexTimesInterval_NoAccumulatedRounding(double rate, int perEvent, long intervalTicksApprox)
    {
        var pacer = new Pacer(new ManualClock(), rate, perEvent);
        var exactTicksPerEvent = perEvent * (decimal)TimeSpan.TicksPerSecond / (decimal)rate;

        Assert.InRange(pacer.Interval.Ticks, intervalTicksApprox - 1, intervalTicksApprox + 1);
        foreach (var index in new long[] { 0, 1, 2, 999, 1_000_000, 123_456_789 })
        {
            var exact = index * exactTicksPerEvent;
            // Within one tick of the exact schedule however far out: computed from the index, not summed.
            Assert.InRange(pacer.DueOffset(index).Ticks, (long)Math.Floor(exact) - 1, (long)Math.Ceiling(exact) + 1);
        }
    }

    [Fact]
    public void Delay_AfterALateSend_CatchesUpInsteadOfDrifting()
    {
        var clock = new ManualClock();
        var pacer = new Pacer(clock, 100, 10); // 10 events/s: due at 0, 100, 200 … ms

        Assert.Equal(TimeSpan.Zero, pacer.Delay(0));
        clock.Advance(TimeSpan.FromMilliseconds(30));
        Assert.Equal(TimeSpan.FromMilliseconds(70), pacer.Delay(1));

        // Event 1 went out 250 ms late (at 350 ms): events 1-3 are overdue, event 4 is due at 400 ms as planned.
        clock.Advance(TimeSpan.FromMilliseconds(320));
        Assert.Equal(TimeSpan.Zero, pacer.Delay(2));
        Assert.Equal(TimeSpan.Zero, pacer.Delay(3));
        Assert.Equal(TimeSpan.FromMilliseconds(50), pacer.Delay(4));
    }

    [Fact]
    public void Delay_ManySmallJitteredSteps_EndsOnTheAbsoluteSchedule()
    {
        var clock = new ManualClock();
        var pacer = new Pacer(clock, 3, 1); // 333.33… ms apart
        var random = new Random(9);

        for (var i = 0; i < 10_000; i++)
        {
            // Send when due, plus 0-5 ms of jitter each time (a relative scheduler would drift by ~25 s here).
            clock.Advance(pacer.Delay(i) + TimeSpan.FromMicroseconds(random.Next(5000)));
        }

        var expected = TimeSpan.FromTicks(10_000 * TimeSpan.TicksPerSecond / 3);
        Assert.InRange(pacer.Delay(10_000), expected - pacer.Elapsed - TimeSpan.FromTicks(1), expected - pacer.Elapsed + TimeSpan.FromTicks(1));
        Assert.InRange(pacer.Elapsed, expected - TimeSpan.FromMilliseconds(334), expected);
    }

    [Fact]
    public void Delay_FlatOut_IsAlwaysZero()
    {
        var pacer = new Pacer(new ManualClock(), null, 50);

        Assert.Equal(TimeSpan.Zero, pacer.Interval);
        Assert.Equal(TimeSpan.Zero, pacer.Delay(1_000_000));
    }
}
