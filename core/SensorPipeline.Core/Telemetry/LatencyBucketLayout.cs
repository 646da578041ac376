using System.Globalization;

namespace SensorPipeline.Core.Telemetry;

/// <summary>
/// Log-scale latency buckets: <see cref="PerDoubling"/> per doubling from <see cref="FirstUpperBoundMs"/> up to the
/// first bound at or above <see cref="MaxTrackedMs"/>, plus an overflow bucket (index <see cref="Count"/>). A value
/// goes to the first bucket whose upper bound is at or above it; a percentile is the upper bound of the bucket that
/// holds the nearest-rank sample, so it is at most 2^(1/PerDoubling) − 1 above the true value (9.05 % at 8).
/// Every layout whose first bound is 1 ms times a power of two shares its bounds with <see cref="LatencyBuckets"/>
/// over their common range, so percentiles from such layouts are the same numbers for the same samples.
/// </summary>
public sealed class LatencyBucketLayout
{
    private readonly double[] _upperBounds;
    private readonly string[] _labels;

    /// <param name="firstUpperBoundMs">Upper bound of the first bucket (everything at or below it lands there); &gt; 0.</param>
    /// <param name="perDoubling">Buckets per doubling, 1 to 64.</param>
    /// <param name="maxTrackedMs">The last finite bound is the first at or above this; &gt; <paramref name="firstUpperBoundMs"/>.</param>
    public LatencyBucketLayout(double firstUpperBoundMs, int perDoubling, double maxTrackedMs)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(firstUpperBoundMs);
        ArgumentOutOfRangeException.ThrowIfLessThan(perDoubling, 1);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(perDoubling, 64);
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(maxTrackedMs, firstUpperBoundMs);
        FirstUpperBoundMs = firstUpperBoundMs;
        PerDoubling = perDoubling;
        MaxTrackedMs = maxTrackedMs;
        // Rounded before the ceiling: log2 of an exact power of two can come out a hair above the integer.
        Count = (int)Math.Ceiling(Math.Round(Math.Log2(maxTrackedMs / firstUpperBoundMs) * perDoubling, 9)) + 1;
        // Whole doublings by ScaleB (exact), the fraction by one Pow per step within a doubling: layouts whose first
        // bounds differ by a power of two then have bit-identical bounds where they overlap.
        _upperBounds = [.. Enumerable.Range(0, Count).Select(i => Math.ScaleB(firstUpperBoundMs * Math.Pow(2, (double)(i % perDoubling) / perDoubling), i / perDoubling))];
        _labels = [.. Enumerable.Range(0, Count + 1).Select(i => i >= Count ? "inf" : _upperBounds[i].ToString("G4", CultureInfo.InvariantCulture))];
    }

    /// <summary>Upper bound of the first bucket, in milliseconds.</summary>
    public double FirstUpperBoundMs { get; }

    /// <summary>Buckets per doubling.</summary>
    public int PerDoubling { get; }

    /// <summary>The value the last finite bucket's upper bound first reaches.</summary>
    public double MaxTrackedMs { get; }

    /// <summary>Number of finite buckets; index <see cref="Count"/> is the overflow bucket.</summary>
    public int Count { get; }

    /// <summary>The bucket of a latency: the first whose upper bound is ≥ it (0 for negative or NaN values).</summary>
    public int Index(double milliseconds)
    {
        if (!(milliseconds > FirstUpperBoundMs))
        {
            return 0; // at or below the first bound, negative (clock skew) or NaN
        }

        var index = (int)Math.Ceiling(Math.Log2(milliseconds / FirstUpperBoundMs) * PerDoubling);
        // Guard the floating-point edge: an exact boundary belongs to its own bucket.
        if (index > 0 && index < Count && _upperBounds[index - 1] >= milliseconds)
        {
            index--;
        }

        return Math.Min(index, Count);
    }

    /// <summary>The bucket's upper bound in ms; +∞ for the overflow bucket.</summary>
    public double UpperBoundMs(int index) => index >= Count ? double.PositiveInfinity : _upperBounds[index];

    /// <summary>The bucket's label: its upper bound in ms, 4 significant digits, "inf" for overflow.</summary>
    public string Label(int index) => _labels[Math.Clamp(index, 0, Count)];

    /// <summary>
    /// The p-quantile (0 &lt; p ≤ 1) of a histogram given as counts per bucket index: the upper bound of the
    /// bucket holding the ⌈p·N⌉-th smallest value (nearest-rank). Null for an empty histogram.
    /// </summary>
    public double? Percentile(IReadOnlyList<long> countsByIndex, double p)
    {
        ArgumentNullException.ThrowIfNull(countsByIndex);
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(p, 0);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(p, 1);
        var total = countsByIndex.Sum();
        if (total == 0)
        {
            return null;
        }

        var rank = (long)Math.Ceiling(p * total);
        long cumulative = 0;
        for (var i = 0; i < countsByIndex.Count; i++)
        {
            cumulative += countsByIndex[i];
            if (cumulative >= rank)
            {
                return UpperBoundMs(i);
            }
        }

        return UpperBoundMs(countsByIndex.Count - 1);
    }
}
