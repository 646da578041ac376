namespace SensorPipeline.Core.Telemetry;

/// <summary>
/// A lock-free latency histogram over a <see cref="LatencyBucketLayout"/>: concurrent callers record, a reporter reads
/// percentiles at any time, without keeping samples. A percentile is the layout's (the bucket's upper bound, nearest
/// rank), clamped to the largest value recorded: both are upper bounds of the true value and the smaller is the tighter.
/// </summary>
public sealed class LatencyHistogram
{
    private readonly long[] _counts;
    private long _count;
    private long _maxTicks;

    /// <param name="layout">The buckets; <see cref="LatencyBuckets.Layout"/> for the pipeline's own.</param>
    public LatencyHistogram(LatencyBucketLayout layout)
    {
        ArgumentNullException.ThrowIfNull(layout);
        Layout = layout;
        _counts = new long[layout.Count + 1];
    }

    public LatencyBucketLayout Layout { get; }

    public long Count => Interlocked.Read(ref _count);

    /// <summary>The largest latency recorded; zero when empty.</summary>
    public TimeSpan Max => TimeSpan.FromTicks(Interlocked.Read(ref _maxTicks));

    public void Record(TimeSpan latency)
    {
        var ticks = Math.Max(latency.Ticks, 0);
        Interlocked.Increment(ref _counts[Layout.Index(TimeSpan.FromTicks(ticks).TotalMilliseconds)]);
        Interlocked.Increment(ref _count);
        InterlockedMax.Raise(ref _maxTicks, ticks);
    }

    /// <summary>The p-quantile (0 &lt; p ≤ 1): at most one bucket above the true value; zero when empty.</summary>
    public TimeSpan Percentile(double p)
    {
        var counts = new long[_counts.Length];
        for (var i = 0; i < counts.Length; i++)
        {
            counts[i] = Interlocked.Read(ref _counts[i]);
        }

        // In double until clamped: the overflow bucket's bound is +∞.
        return Layout.Percentile(counts, p) is { } upperBoundMs
            ? TimeSpan.FromTicks((long)Math.Min(Math.Ceiling(upperBoundMs * TimeSpan.TicksPerMillisecond), Interlocked.Read(ref _maxTicks)))
            : TimeSpan.Zero;
    }
}
