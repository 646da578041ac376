using System.Collections.Concurrent;
using Microsoft.ApplicationInsights;
using Microsoft.ApplicationInsights.Metrics;
using SensorPipeline.Core.Telemetry;

namespace SensorPipeline.Functions.Telemetry;

/// <summary>
/// A latency histogram on a two-dimensional metric (Function, Bucket): each value is tracked on the series of its
/// <see cref="LatencyBuckets"/> bucket, so the aggregate's count per bucket is the histogram KQL and the dashboard
/// read percentiles from. Series are looked up once per (function, bucket) and cached: this runs per reading.
/// With a coarser resolution, a value goes to the next bucket whose index is a multiple of <c>8 / bucketsPerDoubling</c>
/// (at 1 per doubling: 1, 2, 4, 8 ms…): its label is still a LatencyBuckets upper bound, so percentiles read from it stay
/// upper bounds.
/// </summary>
internal sealed class LatencyHistogram(Metric metric, int bucketsPerDoubling = LatencyBuckets.PerDoubling)
{
    private readonly int _group = LatencyBuckets.PerDoubling / bucketsPerDoubling;

    private readonly ConcurrentDictionary<string, MetricSeries?[]> _byFunction = new(StringComparer.Ordinal);

    public void Track(string function, double milliseconds)
    {
        var index = Coarsen(LatencyBuckets.Index(milliseconds));
        var series = _byFunction.GetOrAdd(function, static _ => new MetricSeries?[LatencyBuckets.Count + 1]);
        var s = series[index];
        if (s is null)
        {
            // A race here creates nothing twice: the SDK returns the same series for the same dimension values.
            if (!metric.TryGetDataSeries(out s, function, LatencyBuckets.Label(index)))
            {
                return; // over the series cap: the SDK drops it, as it would on TrackValue
            }

            series[index] = s;
        }

        s.TrackValue(milliseconds);
    }

    /// <summary>The first index at or above <paramref name="index"/> that is a multiple of the group size; the overflow bucket stays itself.</summary>
    internal int Coarsen(int index) =>
        _group == 1 || index >= LatencyBuckets.Count ? index : Math.Min((index + _group - 1) / _group * _group, LatencyBuckets.Count - 1);
}
