using SensorPipeline.Core.Telemetry;

namespace SensorPipeline.Core.Tests;

/// <summary>One histogram for every latency the project reports: the pipeline's range (from 1 ms) and loadgen's send
/// range (from 2^-7 ms ≈ 7.8 µs) are two layouts of the same implementation.</summary>
public class LatencyHistogramTests
{
    private static readonly LatencyBucketLayout Microseconds = new(LatencyBuckets.FirstUpperBoundMs / 128, LatencyBuckets.PerDoubling, LatencyBuckets.MaxTrackedMs);
    private static readonly double OneBucket = Math.Pow(2, 1.0 / LatencyBuckets.PerDoubling);

    public static TheoryData<string, double> Ranges => new()
    {
        // The pipeline's: 1..100,000 samples of 1 ms each step.
        { "pipeline", 1.0 },
        // Loadgen's sends: 1..100,000 samples of 10 µs each step, mostly below 1 ms where the pipeline has one bucket.
        { "microseconds", 0.01 },
    };

    [Theory]
    [MemberData(nameof(Ranges))]
    public void Percentile_OfUniformSamples_IsExactToOneBucket(string range, double stepMs)
    {
        var histogram = new LatencyHistogram(range == "pipeline" ? LatencyBuckets.Layout : Microseconds);
        for (var i = 1; i <= 100_000; i++)
        {
            histogram.Record(TimeSpan.FromMilliseconds(i * stepMs));
        }

        Assert.Equal(100_000, histogram.Count);
        foreach (var p in new[] { 0.01, 0.5, 0.9, 0.99, 0.999 })
        {
            var truth = p * 100_000 * stepMs;
            Assert.InRange(histogram.Percentile(p).TotalMilliseconds, truth * 0.999_999, truth * OneBucket);
        }

        Assert.Equal(TimeSpan.FromMilliseconds(100_000 * stepMs), histogram.Percentile(1));
        Assert.Equal(histogram.Percentile(1), histogram.Max);
    }

    [Fact]
    public void Percentile_BelowTheFirstBound_IsTheMaximumSeen()
    {
        var pipeline = new LatencyHistogram(LatencyBuckets.Layout);
        var fine = new LatencyHistogram(Microseconds);
        foreach (var us in new[] { 20, 40, 80, 160, 320 })
        {
            pipeline.Record(TimeSpan.FromMicroseconds(us));
            fine.Record(TimeSpan.FromMicroseconds(us));
        }

        // The pipeline's first bucket holds everything up to 1 ms, so its median is the max seen; the fine layout
        // keeps them apart.
        Assert.Equal(TimeSpan.FromMicroseconds(320), pipeline.Percentile(0.5));
        Assert.InRange(fine.Percentile(0.5).TotalMicroseconds, 80, 80 * OneBucket);
    }

    [Fact]
    public void Layouts_AnchoredOnOneMillisecond_ReportTheSamePercentilesFromOneMillisecondUp()
    {
        var pipeline = new LatencyHistogram(LatencyBuckets.Layout);
        var fine = new LatencyHistogram(Microseconds);
        var random = new Random(11);
        for (var i = 0; i < 20_000; i++)
        {
            var latency = TimeSpan.FromMilliseconds(1 + Math.Exp(random.NextDouble() * Math.Log(60_000)));
            pipeline.Record(latency);
            fine.Record(latency);
        }

        foreach (var p in new[] { 0.5, 0.9, 0.99, 0.999, 1 })
        {
            Assert.Equal(pipeline.Percentile(p), fine.Percentile(p));
        }
    }

    [Fact]
    public void Percentile_Empty_IsZero() => Assert.Equal(TimeSpan.Zero, new LatencyHistogram(Microseconds).Percentile(0.99));

    [Fact]
    public void Percentile_AboveTheRange_IsTheMaximumSeen()
    {
        var histogram = new LatencyHistogram(LatencyBuckets.Layout);
        histogram.Record(TimeSpan.FromHours(2));
        Assert.Equal(TimeSpan.FromHours(2), histogram.Percentile(0.5));
    }

    [Fact]
    public async Task Record_Concurrently_LosesNone()
    {
        var histogram = new LatencyHistogram(Microseconds);
        await Parallel.ForEachAsync(Enumerable.Range(0, 8), (_, _) =>
        {
            for (var i = 0; i < 10_000; i++)
            {
                histogram.Record(TimeSpan.FromMicroseconds(i));
            }

            return ValueTask.CompletedTask;
        });

        Assert.Equal(80_000, histogram.Count);
        Assert.Equal(TimeSpan.FromMicroseconds(9_999), histogram.Max);
    }

    [Theory]
    [InlineData(0, 8, 10)]
    [InlineData(1, 0, 10)]
    [InlineData(1, 65, 10)]
    [InlineData(1, 8, 1)]
    public void Layout_OutOfRange_Rejected(double first, int perDoubling, double max) =>
        Assert.Throws<ArgumentOutOfRangeException>(() => new LatencyBucketLayout(first, perDoubling, max));
}
