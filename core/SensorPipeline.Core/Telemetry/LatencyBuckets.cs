namespace SensorPipeline.Core.Telemetry;

/// <summary>
/// The pipeline's latency buckets: a <see cref="LatencyBucketLayout"/> of 8 per doubling from 1 ms to 10 minutes.
/// Metric aggregates carry only sum, count, min and max, so each latency is also counted in its bucket (the bucket
/// is a metric dimension); percentiles are then computed from bucket counts with no sampling and bounded cost, exact
/// to one bucket: the reported value is the bucket's upper bound, at most 2^(1/8) − 1 ≈ 9.05 % above the true value.
/// The same arithmetic runs in KQL (infra workbook) and in the local dashboard, so these numbers are a contract.
/// </summary>
public static class LatencyBuckets
{
    /// <summary>Buckets per doubling.</summary>
    public const int PerDoubling = 8;

    /// <summary>Upper bound of the first bucket, in milliseconds (everything ≤ 1 ms lands there).</summary>
    public const double FirstUpperBoundMs = 1;

    /// <summary>The last finite upper bound is the first ≥ 10 minutes; anything above goes to the overflow bucket.</summary>
    public const double MaxTrackedMs = 600_000;

    /// <summary>The layout itself.</summary>
    public static LatencyBucketLayout Layout { get; } = new(FirstUpperBoundMs, PerDoubling, MaxTrackedMs);

    /// <summary>Number of finite buckets; index <see cref="Count"/> is the overflow bucket.</summary>
    public static int Count => Layout.Count;

    /// <inheritdoc cref="LatencyBucketLayout.Index"/>
    public static int Index(double milliseconds) => Layout.Index(milliseconds);

    /// <inheritdoc cref="LatencyBucketLayout.UpperBoundMs"/>
    public static double UpperBoundMs(int index) => Layout.UpperBoundMs(index);

    /// <summary>The dimension value for a bucket: its upper bound in ms, 4 significant digits, "inf" for overflow.</summary>
    public static string Label(int index) => Layout.Label(index);

    /// <inheritdoc cref="LatencyBucketLayout.Percentile"/>
    public static double? Percentile(IReadOnlyList<long> countsByIndex, double p) => Layout.Percentile(countsByIndex, p);
}
