using SensorPipeline.Stack.Chaos;

namespace SensorPipeline.Stack;

/// <summary>A stretch of a demo run whose documents get their own latency row.</summary>
/// <param name="Name">What the stretch is.</param>
/// <param name="From">Start (aggregation periods that started at or after it).</param>
/// <param name="To">End (exclusive).</param>
public sealed record DemoPhase(string Name, DateTimeOffset From, DateTimeOffset To);

/// <summary>
/// Splits a demo run into its steady state and its backlog episode, so one latency row never mixes the two: the
/// episode runs from the pause until the total lag devhost reports first falls back to what it was in the seconds
/// before the pause (<see cref="ProgressWatch.LagSlack"/> events of slack). A chain that never catches up has no
/// second steady row: the episode then lasts to the end, which is what happened.
/// </summary>
public static class DemoPhases
{
    public const string Before = "steady, before the backlog";
    public const string Backlog = "backlog episode (paused → caught up)";
    public const string After = "steady, after the backlog";
    public const string Killed = "backlog episode (instance killed → caught up)";
    public const string Whole = "steady (no backlog episode)";

    /// <param name="start">The run's start.</param>
    /// <param name="end">The run's end.</param>
    /// <param name="episode">When processing stopped (a pause; a killed instance) and resumed (the resume; its partitions owned again).</param>
    /// <param name="lag">devhost's total lag over the run.</param>
    /// <param name="episodeName">The episode row's name.</param>
    public static IReadOnlyList<DemoPhase> Split(DateTimeOffset start, DateTimeOffset end, (DateTimeOffset PausedAt, DateTimeOffset ResumedAt)? episode,
        IReadOnlyList<(DateTimeOffset At, long Lag)> lag, string episodeName = Backlog)
    {
        ArgumentNullException.ThrowIfNull(lag);
        if (episode is not { } e)
        {
            return [new DemoPhase(Whole, start, end)];
        }

        var baseline = lag.Where(s => s.At < e.PausedAt && s.At >= e.PausedAt - ProgressWatch.BaselineSpan).Select(s => s.Lag).DefaultIfEmpty(0).Max();
        var caughtUp = lag.Where(s => s.At > e.ResumedAt && s.Lag <= baseline + ProgressWatch.LagSlack).Select(s => (DateTimeOffset?)s.At).FirstOrDefault() ?? end;
        List<DemoPhase> phases = [new(Before, start, e.PausedAt), new(episodeName, e.PausedAt, caughtUp), new(After, caughtUp, end)];
        return [.. phases.Where(p => p.To > p.From)];
    }
}
