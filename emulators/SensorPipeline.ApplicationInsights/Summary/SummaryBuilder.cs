using SensorPipeline.Core.Telemetry;
using D = SensorPipeline.Core.Telemetry.MetricNames.Dimensions;

namespace SensorPipeline.ApplicationInsights.Summary;

/// <summary>Computes the dashboard's figures from the stored metric aggregates, as the workbook's KQL does in Azure.</summary>
internal static class SummaryBuilder
{
    private const string NoFunction = "(none)";

    public static TelemetrySummary Build(TelemetryStore store, DateTimeOffset now, TimeSpan window, TimeSpan bin) =>
        Build(store, now, now - window, null, bin);

    /// <summary>The summary of the aggregation periods that started in [<paramref name="from"/>, <paramref name="to"/>)
    /// (to: open-ended when null).</summary>
    public static TelemetrySummary Build(TelemetryStore store, DateTimeOffset now, DateTimeOffset from, DateTimeOffset? to, TimeSpan bin)
    {
        var window = (to ?? now) - from;
        var points = store.Query(since: from, until: to);
        var functions = new SortedDictionary<string, FunctionTotals>(StringComparer.Ordinal);
        var deadLetters = new SortedDictionary<(string, string), long>();
        var cosmos = new SortedDictionary<string, CosmosTotals>(StringComparer.Ordinal);
        var bins = new SortedDictionary<long, BinTotals>();
        var binTicks = bin.Ticks;

        foreach (var p in points)
        {
            var function = p.Dimension(D.Function) ?? NoFunction;
            var binStart = p.Time.UtcTicks / binTicks * binTicks;
            if (!bins.TryGetValue(binStart, out var b))
            {
                bins[binStart] = b = new BinTotals();
            }

            switch (p.Name)
            {
                case MetricNames.CosmosLatencyMs:
                case MetricNames.CosmosRequestCharge:
                case MetricNames.CosmosThrottled:
                case MetricNames.CosmosRetries:
                    AddCosmos(cosmos, b, p);
                    continue;
                case MetricNames.DeadLetters:
                    var key = (function, p.Dimension(D.Reason) ?? "unknown");
                    deadLetters[key] = deadLetters.GetValueOrDefault(key) + (long)p.Sum;
                    break;
                default:
                    break;
            }

            AddFunction(functions, function, p);
            AddFunction(b.Functions, function, p);
        }

        var seconds = bin.TotalSeconds;
        var timeline = Timeline(bins, seconds);

        return new TelemetrySummary(
            now,
            window.TotalSeconds,
            seconds,
            Ingestion(store),
            functions.Where(f => f.Key != NoFunction).Select(f => f.Value.ToSummary(f.Key)).ToList(),
            deadLetters.Select(kv => new DeadLetterCount(kv.Key.Item1, kv.Key.Item2, kv.Value)).ToList(),
            cosmos.Select(kv => kv.Value.ToSummary(kv.Key)).ToList(),
            timeline);
    }

    private static void AddFunction(SortedDictionary<string, FunctionTotals> totals, string function, MetricPoint p)
    {
        if (!totals.TryGetValue(function, out var f))
        {
            totals[function] = f = new FunctionTotals();
        }

        f.Add(p);
    }

    private static List<TimeBin> Timeline(SortedDictionary<long, BinTotals> bins, double seconds) =>
        bins.Select(kv => new TimeBin(
                new DateTimeOffset(kv.Key, TimeSpan.Zero),
                kv.Value.Functions.Where(f => f.Key != NoFunction).Select(f => f.Value.ToBin(f.Key, seconds)).ToList(),
                kv.Value.Throttled,
                kv.Value.CosmosCalls == 0 ? null : kv.Value.CosmosLatencySum / kv.Value.CosmosCalls,
                kv.Value.RequestUnits))
            .ToList();

    /// <summary>Bytes and items per hour: the mean request's size over the mean gap between requests.</summary>
    private static IngestionSummary Ingestion(TelemetryStore store)
    {
        var c = store.Counters;
        double? perHour(long total) =>
            c is { Requests: > 1, FirstRequestAt: { } first, LastRequestAt: { } last } && last > first
                ? total * 3600.0 * (c.Requests - 1) / c.Requests / (last - first).TotalSeconds
                : null;
        return new IngestionSummary(c.Requests, c.ItemsReceived, c.MetricItems, c.OtherItems, c.BytesCompressed, c.BytesUncompressed,
            c.FirstRequestAt, c.LastRequestAt, perHour(c.BytesCompressed), perHour(c.BytesUncompressed), perHour(c.ItemsAccepted), store.Evicted);
    }

    private static void AddCosmos(SortedDictionary<string, CosmosTotals> cosmos, BinTotals bin, MetricPoint p)
    {
        var container = p.Dimension(D.Container) ?? "unknown";
        if (!cosmos.TryGetValue(container, out var c))
        {
            cosmos[container] = c = new CosmosTotals();
        }

        switch (p.Name)
        {
            case MetricNames.CosmosLatencyMs:
                c.Calls += p.Count;
                c.LatencySum += p.Sum;
                c.LatencyMax = Math.Max(c.LatencyMax ?? double.MinValue, p.Max);
                bin.CosmosCalls += p.Count;
                bin.CosmosLatencySum += p.Sum;
                break;
            case MetricNames.CosmosRequestCharge:
                c.RequestUnits += p.Sum;
                bin.RequestUnits += p.Sum;
                break;
            case MetricNames.CosmosThrottled:
                c.Throttled += (long)p.Sum;
                bin.Throttled += (long)p.Sum;
                break;
            default:
                c.Retries += (long)p.Sum;
                break;
        }
    }

    private sealed class BinTotals
    {
        public SortedDictionary<string, FunctionTotals> Functions { get; } = new(StringComparer.Ordinal);

        public long Throttled { get; set; }

        public long CosmosCalls { get; set; }

        public double CosmosLatencySum { get; set; }

        public double RequestUnits { get; set; }
    }

    private sealed class CosmosTotals
    {
        public long Calls { get; set; }

        public double LatencySum { get; set; }

        public double? LatencyMax { get; set; }

        public double RequestUnits { get; set; }

        public long Throttled { get; set; }

        public long Retries { get; set; }

        public CosmosSummary ToSummary(string container) =>
            new(container, Calls, RequestUnits, Calls == 0 ? null : LatencySum / Calls, LatencyMax, Throttled, Retries);
    }

    /// <summary>Sums per function: counters are valueSum, batch counts are valueCount, freshness is the max of valueMax.</summary>
    private sealed class FunctionTotals
    {
        private readonly BucketHistogram _endToEnd = new();
        private readonly BucketHistogram _deviceToStore = new();
        private DateTimeOffset _freshnessLastTime = DateTimeOffset.MinValue;

        public long Events { get; private set; }

        public long Readings { get; private set; }

        public long Documents { get; private set; }

        public long Stale { get; private set; }

        public long DeadLetters { get; private set; }

        public long Invocations { get; private set; }

        public long Failures { get; private set; }

        public long Systemic { get; private set; }

        public long Batches { get; private set; }

        public double? FreshnessMax { get; private set; }

        public double? FreshnessLast { get; private set; }

        public void Add(MetricPoint p)
        {
            switch (p.Name)
            {
                case MetricNames.EventsReceived:
                    // One value per batch: the sum is the events, the count the batches.
                    Events += (long)p.Sum;
                    Batches += p.Count;
                    break;
                case MetricNames.ReadingsReceived:
                    Readings += (long)p.Sum;
                    break;
                case MetricNames.DocumentsWritten:
                    Documents += (long)p.Sum;
                    break;
                case MetricNames.StaleReadings:
                    Stale += (long)p.Sum;
                    break;
                case MetricNames.DeadLetters:
                    DeadLetters += (long)p.Sum;
                    break;
                case MetricNames.InvocationMs:
                    Invocations += p.Count;
                    break;
                case MetricNames.InvocationFailures:
                    Failures += (long)p.Sum;
                    break;
                case MetricNames.SystemicFailures:
                    Systemic += (long)p.Sum;
                    break;
                case MetricNames.FreshnessMs:
                    FreshnessMax = Math.Max(FreshnessMax ?? double.MinValue, p.Max);
                    if (p.Time >= _freshnessLastTime)
                    {
                        // The latest period's worst partition: what "now" looks like, beside the window's worst.
                        FreshnessLast = p.Time > _freshnessLastTime ? p.Max : Math.Max(FreshnessLast ?? double.MinValue, p.Max);
                        _freshnessLastTime = p.Time;
                    }

                    break;
                case MetricNames.EndToEndMs:
                    _endToEnd.AddPacked(p.Dimension(D.Buckets), p.Sum, p.Max);
                    break;
                case MetricNames.DeviceToStoreMs:
                    _deviceToStore.AddPacked(p.Dimension(D.Buckets), p.Sum, p.Max);
                    break;
                default:
                    break;
            }
        }

        public FunctionSummary ToSummary(string function) =>
            new(function, Events, Readings, Documents, Stale, DeadLetters, Invocations, Failures, Batches,
                Batches == 0 ? null : (double)Events / Batches, FreshnessMax, FreshnessLast, _endToEnd.Summarize(), _deviceToStore.Summarize())
            {
                SystemicFailures = Systemic,
            };

        public FunctionBin ToBin(string function, double seconds) =>
            new(function, Events / seconds, Readings / seconds, Documents / seconds, FreshnessMax,
                _endToEnd.Percentile(0.5), _endToEnd.Percentile(0.9), _endToEnd.Percentile(0.99), _endToEnd.Percentile(0.999), Stale, DeadLetters);
    }
}
