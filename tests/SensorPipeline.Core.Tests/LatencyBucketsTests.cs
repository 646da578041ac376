using SensorPipeline.Core.Telemetry;

namespace SensorPipeline.Core.Tests;

public class LatencyBucketsTests
{
    [Fact]
    public void Buckets_CoverOneMillisecondToTenMinutes_EightPerDoubling()
    {
        Assert.Equal(1, LatencyBuckets.UpperBoundMs(0));
        Assert.Equal(2, LatencyBuckets.UpperBoundMs(8), 9);
        Assert.True(LatencyBuckets.UpperBoundMs(LatencyBuckets.Count - 1) >= 600_000);
        Assert.True(LatencyBuckets.UpperBoundMs(LatencyBuckets.Count - 2) < 600_000);
        Assert.Equal("inf", LatencyBuckets.Label(LatencyBuckets.Count));
        Assert.Equal(LatencyBuckets.Count + 1, Enumerable.Range(0, LatencyBuckets.Count + 1).Select(LatencyBuckets.Label).Distinct().Count());
    }

    [Theory]
    [InlineData(-5, 0)]
    [InlineData(0, 0)]
    [InlineData(1, 0)]
    [InlineData(1.0001, 1)]
    [InlineData(2, 8)]
    [InlineData(2.0001, 9)]
    [InlineData(1e9, -1)]
    public void Index_ValueOnABoundary_InTheBucketItBounds(double ms, int expected)
    {
        var index = LatencyBuckets.Index(ms);
        Assert.Equal(expected < 0 ? LatencyBuckets.Count : expected, index);
    }

    [Fact]
    public void Index_RandomValues_AtMostTheUpperBoundAndAboveThePrevious()
    {
        var random = new Random(7);
        for (var i = 0; i < 100_000; i++)
        {
            var ms = Math.Exp(random.NextDouble() * Math.Log(700_000));
            var index = LatencyBuckets.Index(ms);
            Assert.True(ms <= LatencyBuckets.UpperBoundMs(index));
            if (index > 0)
            {
                Assert.True(ms > LatencyBuckets.UpperBoundMs(index - 1));
            }
        }
    }

    [Fact]
    public void Percentile_OfKnownDistribution_IsExactToOneBucket()
    {
        // 1..100,000 ms uniformly: the true P50 is 50,000, P99 99,000, P99.9 99,900.
        var counts = new long[LatencyBuckets.Count + 1];
        for (var ms = 1; ms <= 100_000; ms++)
        {
            counts[LatencyBuckets.Index(ms)]++;
        }

        foreach (var (p, truth) in new[] { (0.5, 50_000.0), (0.9, 90_000.0), (0.99, 99_000.0), (0.999, 99_900.0), (1.0, 100_000.0) })
        {
            var estimate = LatencyBuckets.Percentile(counts, p)!.Value;
            Assert.InRange(estimate, truth, truth * Math.Pow(2, 1.0 / LatencyBuckets.PerDoubling));
        }
    }

    [Fact]
    public void Percentile_SmallSample_UsesNearestRank()
    {
        var counts = new long[LatencyBuckets.Count + 1];
        counts[LatencyBuckets.Index(10)] = 9;
        counts[LatencyBuckets.Index(1000)] = 1;
        Assert.Equal(LatencyBuckets.UpperBoundMs(LatencyBuckets.Index(10)), LatencyBuckets.Percentile(counts, 0.9));
        Assert.Equal(LatencyBuckets.UpperBoundMs(LatencyBuckets.Index(1000)), LatencyBuckets.Percentile(counts, 0.91));
        Assert.Null(LatencyBuckets.Percentile(new long[3], 0.5));
    }
}
