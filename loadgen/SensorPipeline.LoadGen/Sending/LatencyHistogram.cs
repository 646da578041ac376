namespace SensorPipeline.LoadGen.Sending;

/// <summary>
/// A lock-free latency histogram: logarithmic buckets 5 % wide from 10 µs to ~10 min, so percentiles are
/// within 5 % at any rate without keeping every sample. Concurrent senders record; the reporter reads.
/// </summary>
internal sealed class LatencyHistogram
{
    private const double MinimumMicroseconds = 10;
    private const double Growth = 1.05;
    private const int BucketCount = 380; // 10 µs · 1.05^380 ≈ 1.1e9 µs ≈ 18 min

    private static readonly double LogGrowth = Math.Log(Growth);
    private readonly long[] _buckets = new long[BucketCount];
    private long _count;
    private long _maxMicroseconds;

    public long Count => Interlocked.Read(ref _count);

    public void Record(TimeSpan latency)
    {
        var micros = Math.Max(latency.TotalMicroseconds, 0);
        Interlocked.Increment(ref _buckets[BucketOf(micros)]);
        Interlocked.Increment(ref _count);
        var rounded = (long)micros;
        var seen = Interlocked.Read(ref _maxMicroseconds);
        while (rounded > seen)
        {
            var previous = Interlocked.CompareExchange(ref _maxMicroseconds, rounded, seen);
            if (previous == seen)
            {
                break;
            }

            seen = previous;
        }
    }

    /// <summary>The latency below which <paramref name="percentile"/> % of samples fall (the bucket's upper bound); zero when empty.</summary>
    public TimeSpan Percentile(double percentile)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(percentile);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(percentile, 100);
        var total = Count;
        if (total == 0)
        {
            return TimeSpan.Zero;
        }

        var rank = Math.Max(1, (long)Math.Ceiling(total * percentile / 100));
        long seen = 0;
        for (var i = 0; i < BucketCount; i++)
        {
            seen += Interlocked.Read(ref _buckets[i]);
            if (seen >= rank)
            {
                return TimeSpan.FromMicroseconds(Math.Min(UpperBound(i), Interlocked.Read(ref _maxMicroseconds)));
            }
        }

        return Max;
    }

    public TimeSpan Max => TimeSpan.FromMicroseconds(Interlocked.Read(ref _maxMicroseconds));

    private static int BucketOf(double micros) =>
        micros <= MinimumMicroseconds ? 0 : Math.Min(BucketCount - 1, (int)Math.Ceiling(Math.Log(micros / MinimumMicroseconds) / LogGrowth));

    private static double UpperBound(int bucket) => MinimumMicroseconds * Math.Pow(Growth, bucket);
}
