using System.Collections.Concurrent;
using System.Globalization;
using Microsoft.ApplicationInsights;
using Microsoft.ApplicationInsights.DataContracts;

namespace SensorPipeline.Functions.Telemetry;

/// <summary>
/// Pre-aggregated metric series cut on the handler's own period. Each series (a metric name and one or two dimension
/// values) sums its values in process; <see cref="Send"/> turns every series that saw a value into one metric item
/// (valueSum, valueCount, valueMin, valueMax; valueStdDev 0, no query reads it), the shape <c>GetMetric</c> sends.
/// The SDK's <c>GetMetric</c> cuts at every minute boundary on its own thread and 2.23 offers no public way to stop that
/// cycle, so a period longer than a minute (5 min in Azure: a fifth of the items) needs its own aggregation. At most
/// <paramref name="seriesLimit"/> series: beyond it a new series is dropped, as the SDK drops series over its cap.
/// </summary>
internal sealed class MetricAggregates(int seriesLimit = MetricAggregates.DefaultSeriesLimit)
{
    /// <summary>Enough for 3 functions × 1025 partition values plus every per-function series, with room.</summary>
    public const int DefaultSeriesLimit = 8192;

    private readonly ConcurrentDictionary<SeriesKey, Aggregate> _series = new();

    public void Track(string name, double value, string dimension, string dimensionValue) =>
        Track(new SeriesKey(name, dimension, dimensionValue, null, null), value);

    public void Track(string name, double value, string dimension, string dimensionValue, string dimension2, string dimensionValue2) =>
        Track(new SeriesKey(name, dimension, dimensionValue, dimension2, dimensionValue2), value);

    /// <summary>Ends the period: one item per series that saw a value since the last cut; idle series send nothing.</summary>
    public void Send(TelemetryClient client, DateTimeOffset periodStart, TimeSpan period)
    {
        ArgumentNullException.ThrowIfNull(client);
        var interval = ((long)period.TotalMilliseconds).ToString(CultureInfo.InvariantCulture);
        foreach (var (key, aggregate) in _series)
        {
            MetricTelemetry item;
            lock (aggregate)
            {
                if (aggregate.Count == 0)
                {
                    continue;
                }

                item = new MetricTelemetry(key.Name, (int)Math.Min(aggregate.Count, int.MaxValue), aggregate.Sum, aggregate.Min, aggregate.Max, standardDeviation: 0);
                aggregate.Reset();
            }

            item.Properties[key.Dimension] = key.Value;
            if (key.Dimension2 is not null)
            {
                item.Properties[key.Dimension2] = key.Value2!;
            }

            // Stamped with the period's start, as the SDK stamps its aggregates.
            item.Timestamp = periodStart;
            item.Properties[MetricFlusher.AggregationIntervalProperty] = interval;
            client.TrackMetric(item);
        }
    }

    private void Track(SeriesKey key, double value)
    {
        if (!_series.TryGetValue(key, out var aggregate))
        {
            if (_series.Count >= seriesLimit)
            {
                return;
            }

            aggregate = _series.GetOrAdd(key, static _ => new Aggregate());
        }

        lock (aggregate)
        {
            aggregate.Add(value);
        }
    }

    private readonly record struct SeriesKey(string Name, string Dimension, string Value, string? Dimension2, string? Value2);

    /// <summary>One series' values since the last cut; guarded by its own lock (uncontended but for the cut).</summary>
    internal sealed class Aggregate
    {
        public long Count { get; private set; }

        public double Sum { get; private set; }

        public double Min { get; private set; } = double.PositiveInfinity;

        public double Max { get; private set; } = double.NegativeInfinity;

        public void Add(double value)
        {
            Count++;
            Sum += value;
            Min = Math.Min(Min, value);
            Max = Math.Max(Max, value);
        }

        public void Reset()
        {
            Count = 0;
            Sum = 0;
            Min = double.PositiveInfinity;
            Max = double.NegativeInfinity;
        }
    }
}
