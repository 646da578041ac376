using System.Globalization;
using SensorPipeline.Core.Telemetry;

namespace SensorPipeline.ApplicationInsights.Summary;

/// <summary>
/// Bucket counts summed from latency items' <c>Buckets</c> pairs (count per bucket label), and their percentiles by
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

    /// <summary>Pairs whose label is not one of <see cref="LatencyBuckets"/> (another build's buckets) or that do not parse: ignored.</summary>
    public long UnknownLabels { get; private set; }

    /// <summary>
    /// One latency item as the handler sends it: its exact sum and max, and its non-empty buckets as
    /// <c>label:count</c> pairs joined by commas (the Buckets dimension). Pairs that do not parse, or whose label is not
    /// one of <see cref="LatencyBuckets"/>, count as <see cref="UnknownLabels"/>; their readings are left out of the
    /// percentiles and the count but not of the sum and max.
    /// </summary>
    public void AddPacked(string? buckets, double sum, double max)
    {
        _sum += sum;
        _max = Math.Max(_max, max);
        foreach (var pair in (buckets ?? "").Split(',', StringSplitOptions.RemoveEmptyEntries))
        {
            var colon = pair.LastIndexOf(':');
            if (colon <= 0 || !IndexByLabel.TryGetValue(pair[..colon], out var index)
                || !long.TryParse(pair.AsSpan(colon + 1), NumberStyles.None, CultureInfo.InvariantCulture, out var n))
            {
                UnknownLabels++;
                continue;
            }

            _counts[index] += n;
            Total += n;
        }
    }

    public double? Percentile(double p) => Total == 0 ? null : Math.Min(LatencyBuckets.Percentile(_counts, p)!.Value, _max);

    public LatencySummary? Summarize() => Total == 0
        ? null
        : new LatencySummary(Total, Percentile(0.5), Percentile(0.9), Percentile(0.99), Percentile(0.999), _max, _sum / Total);
}
