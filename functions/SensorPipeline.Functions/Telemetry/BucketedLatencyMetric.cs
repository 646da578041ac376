using System.Collections.Concurrent;
using System.Globalization;
using System.Text;
using Microsoft.ApplicationInsights;
using Microsoft.ApplicationInsights.DataContracts;
using SensorPipeline.Core.Telemetry;
using D = SensorPipeline.Core.Telemetry.MetricNames.Dimensions;

namespace SensorPipeline.Functions.Telemetry;

/// <summary>
/// A latency metric and its <see cref="LatencyBuckets"/> histogram, sent as <b>one</b> item per function per period: the
/// aggregate (valueSum, valueCount, valueMin, valueMax, exact) with the non-empty buckets in the <see cref="D.Buckets"/>
/// property as <c>label:count</c> pairs (<c>1.09:12,1.19:40,inf:1</c>). One series per bucket cost an item per populated
/// bucket per instance per period (~87 a minute for end-to-end): most of the telemetry bill; a pair costs ~10 bytes.
/// With a coarser resolution a value goes to the next bucket whose index is a multiple of <c>8 / bucketsPerDoubling</c>
/// (at 1 per doubling: 1, 2, 4, 8 ms…): its label is still a LatencyBuckets upper bound, so percentiles read from it stay
/// upper bounds. Counted in process under a lock per function (this runs per reading; the lock is uncontended but for
/// the cut), cut by <see cref="Send"/> at each aggregation period, as the SDK cuts its own series.
/// </summary>
internal sealed class BucketedLatencyMetric(string metricName, int bucketsPerDoubling = LatencyBuckets.PerDoubling)
{
    private readonly int _group = LatencyBuckets.PerDoubling / bucketsPerDoubling;

    private readonly ConcurrentDictionary<string, Period> _byFunction = new(StringComparer.Ordinal);

    public void Track(string function, double milliseconds)
    {
        var index = Coarsen(LatencyBuckets.Index(milliseconds));
        var period = _byFunction.GetOrAdd(function, static _ => new Period());
        lock (period)
        {
            period.Counts[index]++;
            period.Values.Add(milliseconds);
        }
    }

    /// <summary>
    /// Ends the period: one metric item per function that tracked a value since the last cut (none for an idle function,
    /// as the SDK sends no aggregate for an idle series), then starts the next period from empty.
    /// </summary>
    public void Send(TelemetryClient client, DateTimeOffset periodStart, TimeSpan period)
    {
        ArgumentNullException.ThrowIfNull(client);
        var pairs = new StringBuilder();
        foreach (var (function, state) in _byFunction)
        {
            MetricTelemetry item;
            lock (state)
            {
                var values = state.Values;
                if (values.Count == 0)
                {
                    continue;
                }

                pairs.Clear();
                for (var i = 0; i < state.Counts.Length; i++)
                {
                    if (state.Counts[i] > 0)
                    {
                        pairs.Append(pairs.Length == 0 ? "" : ",").Append(LatencyBuckets.Label(i)).Append(':')
                            .Append(state.Counts[i].ToString(CultureInfo.InvariantCulture));
                    }
                }

                item = new MetricTelemetry(metricName, (int)Math.Min(values.Count, int.MaxValue), values.Sum, values.Min, values.Max, standardDeviation: 0);
                state.Reset();
            }

            item.Timestamp = periodStart;
            item.Properties[D.Function] = function;
            item.Properties[D.Buckets] = pairs.ToString();

            // As the SDK's own aggregates: the period's length, so a reader can turn sums into rates.
            item.Properties[MetricFlusher.AggregationIntervalProperty] = ((long)period.TotalMilliseconds).ToString(CultureInfo.InvariantCulture);
            client.TrackMetric(item);
        }
    }

    /// <summary>The first index at or above <paramref name="index"/> that is a multiple of the group size; the overflow bucket stays itself.</summary>
    internal int Coarsen(int index) =>
        _group == 1 || index >= LatencyBuckets.Count ? index : Math.Min((index + _group - 1) / _group * _group, LatencyBuckets.Count - 1);

    /// <summary>One function's values since the last cut; guarded by its own lock.</summary>
    private sealed class Period
    {
        public long[] Counts { get; } = new long[LatencyBuckets.Count + 1];

        public MetricAggregates.Aggregate Values { get; } = new();

        public void Reset()
        {
            Array.Clear(Counts);
            Values.Reset();
        }
    }
}
