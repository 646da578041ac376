namespace SensorPipeline.Telemetry.Tests;

/// <summary>A coarser histogram (Telemetry__HistogramBucketsPerDoubling) still reports upper bounds, on LatencyBuckets labels.</summary>
[Trait("Category", "Fast")]
public sealed class HistogramResolutionTests
{
    [Theory]
    [InlineData(8, 0.0906)]
    [InlineData(4, 0.190)]
    [InlineData(2, 0.415)]
    [InlineData(1, 1.0)]
    public void Coarsen_EveryValue_LandsOnAnUpperBoundWithinTheResolution(int perDoubling, double maxRelativeError)
    {
        var histogram = new BucketedLatencyMetric(null!, perDoubling);

        for (var ms = 1.5; ms < 500_000; ms *= 1.013)
        {
            var coarse = histogram.Coarsen(LatencyBuckets.Index(ms));
            var bound = LatencyBuckets.UpperBoundMs(coarse);
            Assert.True(bound >= ms, $"{ms} ms → bucket {coarse} ({bound} ms) is not an upper bound");
            Assert.True(bound / ms - 1 <= maxRelativeError, $"{ms} ms → {bound} ms is more than {maxRelativeError:P1} high");
            Assert.Equal(0, coarse % (LatencyBuckets.PerDoubling / perDoubling));
        }

        Assert.Equal(LatencyBuckets.Count, histogram.Coarsen(LatencyBuckets.Count));
    }
}
