using System.Collections.Concurrent;
using Microsoft.ApplicationInsights;
using Microsoft.ApplicationInsights.Metrics;
using SensorPipeline.Core.Telemetry;

namespace SensorPipeline.Functions.Telemetry;

/// <summary>
/// A latency histogram on a two-dimensional metric (Function, Bucket): each value is tracked on the series of its
/// <see cref="LatencyBuckets"/> bucket, so the aggregate's count per bucket is the histogram KQL and the dashboard
/// read percentiles from. Series are looked up once per (function, bucket) and cached: this runs per reading.
/// </summary>
internal sealed class LatencyHistogram(Metric metric)
{
    private readonly ConcurrentDictionary<string, MetricSeries?[]> _byFunction = new(StringComparer.Ordinal);

    public void Track(string function, double milliseconds)
    {
        var index = LatencyBuckets.Index(milliseconds);
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
}
