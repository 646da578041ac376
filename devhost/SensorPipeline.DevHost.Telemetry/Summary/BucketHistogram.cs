using SensorPipeline.Core.Telemetry;

namespace SensorPipeline.DevHost.Telemetry.Summary;

/// <summary>
/// Bucket counts summed from <c>…Bucket</c> metric aggregates (valueCount per Bucket label), and their percentiles by
/// <see cref="LatencyBuckets.Percentile"/>: the same nearest-rank arithmetic the handler's tests check and the KQL ports.
/// A percentile is clamped to the exact max: both are upper bounds of the true value, the smaller is the tighter, and
/// a percentile in the overflow bucket (over 10 minutes, upper bound +∞) becomes a number JSON and charts can carry.
/// </summary>
internal sealed class BucketHistogram
{
    private static readonly Dictionary<string, int> IndexByLabel =
        Enumerable.Range(0, LatencyBuckets.Count + 1).ToDictionary(LatencyBuckets.Label, i => i, StringComparer.Ordinal);

    private readonly long[] _counts = new long[LatencyBuckets.Count + 1];
    private double _sum;
    private double _max = double.NegativeInfinity;

    public long Total { get; private set; }

    /// <summary>Aggregates whose Bucket label is not one of <see cref="LatencyBuckets"/> (another build's buckets): ignored.</summary>
    public long UnknownLabels { get; private set; }

    public void Add(string? label, long count, double sum, double max)
    {
        if (label is null || !IndexByLabel.TryGetValue(label, out var index))
        {
            UnknownLabels++;
            return;
        }

        _counts[index] += count;
        Total += count;
        _sum += sum;
        _max = Math.Max(_max, max);
    }

    public double? Percentile(double p) => Total == 0 ? null : Math.Min(LatencyBuckets.Percentile(_counts, p)!.Value, _max);

    public LatencySummary? Summarize() => Total == 0
        ? null
        : new LatencySummary(Total, Percentile(0.5), Percentile(0.9), Percentile(0.99), Percentile(0.999), _max, _sum / Total);
}
