using SensorPipeline.FunctionsHost.Status;

namespace SensorPipeline.FunctionsHost.Tests;

/// <summary>The observer's bounded ownership history and its binning for the dashboard (pure: samples in, bins out).</summary>
[Trait("Category", "Fast")]
public sealed class OwnershipHistoryTests
{
    private static readonly DateTimeOffset T0 = new(2026, 1, 1, 0, 0, 0, TimeSpan.Zero);

    [Fact]
    public void Ring_HoldsThirtyMinutesAtTheInterval_AndDropsTheOldest()
    {
        var history = new OwnershipHistory(TimeSpan.FromSeconds(1));
        Assert.Equal(1800, history.Capacity);
        Assert.Equal(OwnershipHistory.MaxSamples, new OwnershipHistory(TimeSpan.FromMilliseconds(50)).Capacity);

        for (var i = 0; i < 1900; i++)
        {
            history.Record(T0.AddSeconds(i), [new FunctionOwnership(1, i, ["a"])]);
        }

        var (before, samples) = history.Since(DateTimeOffset.MinValue);
        Assert.Null(before);
        Assert.Equal(1800, samples.Count);
        Assert.Equal(T0.AddSeconds(100), samples[0].Time);
        Assert.Equal(1899, samples[^1].Functions[0].Changes);

        var (last, recent) = history.Since(T0.AddSeconds(1890));
        Assert.Equal(T0.AddSeconds(1889), last!.Time);
        Assert.Equal(10, recent.Count);
    }

    [Fact]
    public void UnchangedOwners_AreStoredOnce_ChangedOnesAgain()
    {
        var history = new OwnershipHistory(TimeSpan.FromSeconds(1));
        history.Record(T0, [new FunctionOwnership(2, 0, ["a", "b"])]);
        history.Record(T0.AddSeconds(1), [new FunctionOwnership(2, 0, ["a", "b"])]);
        history.Record(T0.AddSeconds(2), [new FunctionOwnership(1, 1, ["a", "a"])]);

        var samples = history.Since(T0).Samples;
        Assert.Same(samples[0].Functions[0].Owners, samples[1].Functions[0].Owners);
        Assert.NotSame(samples[1].Functions[0].Owners, samples[2].Functions[0].Owners);
        Assert.Equal("a,a", string.Join(',', samples[2].Functions[0].Owners));
    }

    [Fact]
    public void Build_InstanceKilled_BinsShowTheDropTheGapAndTheMove()
    {
        // Two instances split two partitions; b dies, its record expires (no owner), a claims it (one change).
        var history = new OwnershipHistory(TimeSpan.FromMilliseconds(500));
        (int Instances, long Changes, string?[] Owners)[] seen =
        [
            (2, 3, ["a", "b"]), (2, 3, ["a", "b"]), // bin 0 s (3 changes before the window: the start-up balancing)
            (2, 3, ["a", "b"]), (1, 3, ["a", null]), // bin 1 s: b's record expired
            (1, 4, ["a", "a"]), (1, 4, ["a", "a"]), // bin 2 s: a took it over
        ];
        history.Record(T0.AddSeconds(-1), [new FunctionOwnership(2, 3, ["b", "a"])]);
        for (var i = 0; i < seen.Length; i++)
        {
            history.Record(T0.AddMilliseconds(500 * i), [new FunctionOwnership(seen[i].Instances, seen[i].Changes, seen[i].Owners)]);
        }

        var (before, samples) = history.Since(T0);
        var timeline = OwnershipTimeline.Build(T0.AddSeconds(3), history.Interval, TimeSpan.FromSeconds(3), TimeSpan.FromSeconds(1), ["Fn"], before, samples);

        Assert.True(timeline.Recording);
        var fn = Assert.Single(timeline.Functions);
        Assert.Equal(("Fn", 2, 1, 4L), (fn.Name, fn.PartitionCount, fn.Instances, fn.OwnershipChanges));
        Assert.Equal("a,a", string.Join(',', fn.CurrentOwners));
        Assert.Equal(["a", "b"], fn.Owners);
        Assert.Equal([T0, T0.AddSeconds(1), T0.AddSeconds(2)], fn.Bins.Select(b => b.Start));
        Assert.Equal([2, 1, 1], fn.Bins.Select(b => b.Instances));
        Assert.Equal([(2, 2), (1, 2), (1, 1)], fn.Bins.Select(b => (b.InstancesMin, b.InstancesMax)));
        Assert.Equal([0L, 0L, 1L], fn.Bins.Select(b => b.Changes));
        Assert.Equal([3L, 3L, 4L], fn.Bins.Select(b => b.CumulativeChanges));
        Assert.Equal([[0, 1], [0, -1], [0, 0]], fn.Bins.Select(b => b.Owners.ToArray()));
    }

    [Fact]
    public void Timeline_WithoutABaseline_CountsChangesFromTheFirstSample()
    {
        var history = new OwnershipHistory(TimeSpan.FromSeconds(1));
        history.Record(T0, [new FunctionOwnership(1, 5, ["a"]), new FunctionOwnership(0, 0, [null])]);
        history.Record(T0.AddSeconds(1), [new FunctionOwnership(1, 7, ["b"]), new FunctionOwnership(0, 0, [null])]);

        var (before, samples) = history.Since(T0);
        var timeline = OwnershipTimeline.Build(T0.AddSeconds(2), history.Interval, TimeSpan.FromSeconds(10), TimeSpan.FromSeconds(5), ["Fn", "Idle"], before, samples);

        Assert.Equal([2L], timeline.Functions[0].Bins.Select(b => b.Changes));
        Assert.Equal([-1], timeline.Functions[1].Bins.Single().Owners);
        Assert.Empty(timeline.Functions[1].Owners);
    }
}
