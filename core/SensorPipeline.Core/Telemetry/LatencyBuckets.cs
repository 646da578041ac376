using System.Globalization;

namespace SensorPipeline.Core.Telemetry;

/// <summary>
/// Fixed log-scale latency buckets, 8 per doubling from 1 ms to 10 minutes. Metric aggregates carry
/// only sum, count, min and max, so each latency is also counted in its bucket (the bucket is a metric
/// dimension); percentiles are then computed from bucket counts with no sampling and bounded cost, exact
/// to one bucket: the reported value is the bucket's upper bound, at most 2^(1/8) − 1 ≈ 9.05 % above the
/// true value. The same arithmetic runs in KQL (infra workbook) and in the local dashboard.
/// </summary>
public static class LatencyBuckets
{
    /// <summary>Buckets per doubling.</summary>
    public const int PerDoubling = 8;

    /// <summary>Upper bound of the first bucket, in milliseconds (everything ≤ 1 ms lands there).</summary>
    public const double FirstUpperBoundMs = 1;

    /// <summary>The last finite upper bound is the first ≥ 10 minutes; anything above goes to the overflow bucket.</summary>
    public const double MaxTrackedMs = 600_000;

    /// <summary>Number of finite buckets; index <see cref="Count"/> is the overflow bucket.</summary>
    public static readonly int Count = (int)Math.Ceiling(Math.Log2(MaxTrackedMs / FirstUpperBoundMs) * PerDoubling) + 1;

    private static readonly double[] UpperBounds = Enumerable.Range(0, Count).Select(i => FirstUpperBoundMs * Math.Pow(2, (double)i / PerDoubling)).ToArray();
    private static readonly string[] Labels = Enumerable.Range(0, Count + 1).Select(FormatLabel).ToArray();

    /// <summary>The bucket of a latency: the first whose upper bound is ≥ it.</summary>
    public static int Index(double milliseconds)
    {
        if (!(milliseconds > FirstUpperBoundMs))
        {
            return 0; // ≤ 1 ms, negative (clock skew) or NaN
        }

        var index = (int)Math.Ceiling(Math.Log2(milliseconds / FirstUpperBoundMs) * PerDoubling);
        // Guard the floating-point edge: an exact boundary belongs to its own bucket.
        if (index > 0 && index < Count && UpperBounds[index - 1] >= milliseconds)
        {
            index--;
        }

        return Math.Min(index, Count);
    }

    /// <summary>The bucket's upper bound in ms; +∞ for the overflow bucket.</summary>
    public static double UpperBoundMs(int index) => index >= Count ? double.PositiveInfinity : UpperBounds[index];

    /// <summary>The dimension value for a bucket: its upper bound in ms, 4 significant digits, "inf" for overflow.</summary>
    public static string Label(int index) => Labels[Math.Clamp(index, 0, Count)];

    /// <summary>
    /// The p-quantile (0 &lt; p ≤ 1) of a histogram given as counts per bucket index: the upper bound of the
    /// bucket holding the ⌈p·N⌉-th smallest value (nearest-rank). Null for an empty histogram.
    /// </summary>
    public static double? Percentile(IReadOnlyList<long> countsByIndex, double p)
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

    private static string FormatLabel(int index) =>
        index >= Count ? "inf" : UpperBounds[index].ToString("G4", CultureInfo.InvariantCulture);
}
