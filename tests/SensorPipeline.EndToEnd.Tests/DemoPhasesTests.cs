namespace SensorPipeline.EndToEnd.Tests;

/// <summary>How a demo run is split into its steady state and its backlog episode (pure: no stack started).</summary>
[Trait("Category", "Fast")]
public sealed class DemoPhasesTests
{
    private static readonly DateTimeOffset T0 = new(2026, 11, 24, 12, 0, 0, TimeSpan.Zero);

    private static DateTimeOffset At(double seconds) => T0.AddSeconds(seconds);

    [Fact]
    public void Split_NoEpisode_OneSteadyRow()
    {
        var phase = Assert.Single(DemoPhases.Split(At(0), At(40), null, []));
        Assert.Equal((DemoPhases.Whole, At(0), At(40)), (phase.Name, phase.From, phase.To));
    }

    [Fact]
    public void Split_PauseAndResume_EpisodeEndsAtTheFirstPollWithTheLagBackToItsLevelBefore()
    {
        // Lag about 8 before the pause (the baseline is the highest in the 3 s before it), a backlog, then back down.
        List<(DateTimeOffset, long)> lag =
        [
            (At(5), 40), (At(8), 8), (At(9), 3), (At(9.5), 6),
            (At(12), 900), (At(18), 2_400), (At(19), 1_200), (At(20), 30), (At(21), 13), (At(22), 4), (At(30), 2),
        ];

        var phases = DemoPhases.Split(At(0), At(40), (At(10), At(18.5)), lag);

        Assert.Equal(
            [(DemoPhases.Before, At(0), At(10)), (DemoPhases.Backlog, At(10), At(21)), (DemoPhases.After, At(21), At(40))],
            phases.Select(p => (p.Name, p.From, p.To)));
    }

    [Fact]
    public void Split_KilledInstance_EpisodeNamedForTheKillEndsWhenTheLagIsBack()
    {
        // Killed at 15 s, its partitions owned again at 40 s; the backlog they held is worked off by 44 s.
        List<(DateTimeOffset, long)> lag = [(At(14), 4), (At(30), 3_000), (At(41), 2_000), (At(44), 5)];

        var phases = DemoPhases.Split(At(0), At(60), (At(15), At(40)), lag, DemoPhases.Killed);

        Assert.Equal(
            [(DemoPhases.Before, At(0), At(15)), (DemoPhases.Killed, At(15), At(44)), (DemoPhases.After, At(44), At(60))],
            phases.Select(p => (p.Name, p.From, p.To)));
    }

    [Fact]
    public void Split_NeverCaughtUp_EpisodeLastsToTheEndWithNoSecondSteadyRow()
    {
        List<(DateTimeOffset, long)> lag = [(At(9), 2), (At(20), 5_000), (At(39), 4_000)];

        var phases = DemoPhases.Split(At(0), At(40), (At(10), At(18)), lag);

        Assert.Equal([DemoPhases.Before, DemoPhases.Backlog], phases.Select(p => p.Name));
        Assert.Equal(At(40), phases[^1].To);
    }

    [Fact]
    public void Split_LowLagBeforeTheResume_EpisodeGoesOn()
    {
        // While paused the processors' lag can read low for a moment (nothing enqueued yet); only polls after the resume count.
        List<(DateTimeOffset, long)> lag = [(At(9), 2), (At(11), 0), (At(19), 2)];

        var phases = DemoPhases.Split(At(0), At(40), (At(10), At(18)), lag);

        Assert.Equal(At(19), phases[1].To);
    }
}
