using System.Globalization;
using FsCheck;
using FsCheck.Fluent;

namespace SensorPipeline.Telemetry.Tests;

/// <summary>
/// The workbook's percentile KQL (infra/workbook/e2e-percentiles.kql), ported step by step to C#, must give what the
/// dashboard gives (LatencyBuckets.Percentile over bucket indices). KQL only sees the label strings of the Buckets pairs, so this is
/// where a label format that does not sort or parse like its bound would show.
/// </summary>
[Trait("Category", "Fast")]
public sealed class KqlPercentileTests
{
    private static readonly double[] Quantiles = [0.5, 0.9, 0.99, 0.999];

    [Fact]
    public void Labels_ParseAsKqlTodoubleDoes_StrictlyIncreasing()
    {
        var bounds = Enumerable.Range(0, LatencyBuckets.Count + 1).Select(i => KqlUpperMs(LatencyBuckets.Label(i))).ToArray();

        Assert.All(bounds.Zip(bounds.Skip(1)), pair => Assert.True(pair.First < pair.Second, $"{pair.First} !< {pair.Second}"));
        Assert.Equal(double.PositiveInfinity, bounds[^1]);
        // Four significant digits keep every label within 0.05 % of the bound the handler used.
        Assert.All(Enumerable.Range(0, LatencyBuckets.Count), i => Assert.InRange(bounds[i] / LatencyBuckets.UpperBoundMs(i), 0.9995, 1.0005));
    }

    [Fact]
    public void Percentile_KnownDistribution_KqlPortEqualsDashboard()
    {
        // 1..10,000 ms uniform: the exact nearest-rank p50 is 5,000 ms, p99 9,900 ms.
        var rows = Rows(Enumerable.Range(1, 10_000).Select(v => (double)v));

        var histogram = Histogram(rows, max: 10_000);

        Assert.Equal(LatencyBuckets.UpperBoundMs(LatencyBuckets.Index(5_000)), histogram.Percentile(0.5)!.Value, 9);
        foreach (var p in Quantiles)
        {
            Assert.Equal(KqlPercentile(rows, p, max: 10_000), histogram.Percentile(p)!.Value, 1e-9 * histogram.Percentile(p)!.Value + 0.0005 * histogram.Percentile(p)!.Value);
        }
    }

    [Fact]
    public void Percentile_AnyHistogram_KqlPortPicksTheDashboardsBucket()
    {
        var latencies = Gen.Choose(0, 800_000).Select(v => v / 1.3).ListOf().Where(l => l.Count > 0);
        Prop.ForAll(latencies.ToArbitrary(), values =>
        {
            var rows = Rows(values);
            var max = values.Max();
            var histogram = Histogram(rows, max);
            foreach (var p in Quantiles)
            {
                var dashboard = histogram.Percentile(p)!.Value;
                var kql = KqlPercentile(rows, p, max);

                // Same bucket: KQL reads the label (4 significant digits), the dashboard the exact bound; both clamp to max.
                if (!(Math.Abs(kql - dashboard) <= 0.0005 * dashboard))
                {
                    return false;
                }
            }

            return true;
        }).QuickCheckThrowOnFailure();
    }

    /// <summary>What the handler sends per function and period: the non-empty buckets as label:count pairs (the Buckets
    /// dimension), here split across two items as two instances or two periods would send them.</summary>
    private static List<string> Rows(IEnumerable<double> values)
    {
        var pairs = values.GroupBy(v => LatencyBuckets.Index(v)).OrderBy(g => g.Key)
            .Select(g => string.Create(CultureInfo.InvariantCulture, $"{LatencyBuckets.Label(g.Key)}:{g.Count()}")).ToList();
        var half = pairs.Count / 2;
        return [string.Join(',', pairs.Take(half)), string.Join(',', pairs.Skip(half))];
    }

    private static BucketHistogram Histogram(List<string> rows, double max)
    {
        var histogram = new BucketHistogram();
        foreach (var buckets in rows)
        {
            histogram.AddPacked(buckets, sum: 0, max);
        }

        return histogram;
    }

    /// <summary>e2e-percentiles.kql: mv-expand Pair = split(Buckets, ","); Bucket = split(Pair, ":")[0], PairCount =
    /// tolong(split(Pair, ":")[1]); Count = sum(PairCount) by Bucket; UpperMs = iff(Bucket == "inf", +inf, todouble(Bucket));
    /// order by UpperMs; Cumulative = row_cumsum(Count); P = minif(UpperMs, Cumulative >= ceiling(p * Total)); min_of(P, Max).</summary>
    private static double KqlPercentile(List<string> rows, double p, double max)
    {
        var expanded = rows.SelectMany(r => r.Split(',', StringSplitOptions.RemoveEmptyEntries))
            .Select(pair => (Bucket: pair.Split(':')[0], PairCount: long.Parse(pair.Split(':')[1], CultureInfo.InvariantCulture)));
        var ordered = expanded.GroupBy(e => e.Bucket).Select(g => (UpperMs: KqlUpperMs(g.Key), Count: g.Sum(e => e.PairCount)))
            .OrderBy(r => r.UpperMs).ToList();
        var total = ordered.Sum(r => r.Count);
        var rank = Math.Ceiling(p * total);
        long cumulative = 0;
        var result = double.PositiveInfinity;
        foreach (var (upperMs, count) in ordered)
        {
            cumulative += count;
            if (cumulative >= rank)
            {
                result = Math.Min(result, upperMs);
            }
        }

        return Math.Min(result, max);
    }

    private static double KqlUpperMs(string bucket) =>
        bucket == "inf" ? double.PositiveInfinity : double.Parse(bucket, NumberStyles.Float, CultureInfo.InvariantCulture);
}
