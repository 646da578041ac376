using System.Globalization;
using Microsoft.ApplicationInsights;
using Microsoft.ApplicationInsights.Metrics;
using SensorPipeline.Core.DeadLetters;
using SensorPipeline.Core.Readings;
using SensorPipeline.Core.Splitting;
using SensorPipeline.Core.Telemetry;
using D = SensorPipeline.Core.Telemetry.MetricNames.Dimensions;

namespace SensorPipeline.Functions.Telemetry;

/// <summary>
/// The handler's metrics, all pre-aggregated with <see cref="TelemetryClient.GetMetric(string)"/>: values are summed
/// in-process and only one aggregate (sum, count, min, max) per series per flush interval leaves the process, so the
/// volume scales with series × flushes, never with events, and nothing is sampled away. Every method is a no-op when
/// telemetry is off (<see cref="TelemetryOptions.ConnectionString"/> unset). Thread-safe: the SDK's series are.
/// </summary>
internal sealed class PipelineMetrics
{
    /// <summary>Most functions a handler process hosts (the three of conventions.md, with room).</summary>
    private const int FunctionLimit = 16;

    /// <summary>Event Hubs allows up to 1024 partitions per hub (dedicated tier); one series per partition at most.</summary>
    private const int PartitionLimit = 1024;

    /// <summary>Resolution of the device-to-store histogram: at most this many buckets per doubling (see the constructor).</summary>
    internal const int DeviceToStoreBucketsPerDoubling = 2;

    /// <summary>Different Cosmos DB containers, operations, status codes or dead-letter reasons per metric.</summary>
    private const int SmallLimit = 64;

    // The SDK's default caps a dimension at 100 values and a metric at 1000 series: the Bucket dimension has
    // LatencyBuckets.Count + 1 values and the Partition dimension up to 1024, so both caps are raised explicitly.
    private static readonly MetricConfiguration PerPartition = Configuration(FunctionLimit, PartitionLimit);
    private static readonly MetricConfiguration PerBucket = Configuration(FunctionLimit, LatencyBuckets.Count + 1);
    private static readonly MetricConfiguration PerReason = Configuration(FunctionLimit, SmallLimit);
    private static readonly MetricConfiguration PerContainer = Configuration(SmallLimit, SmallLimit);
    private static readonly MetricConfiguration PerFunction = Configuration(FunctionLimit);
    private static readonly MetricConfiguration PerContainerOnly = Configuration(SmallLimit);

    /// <summary>One slot per dead-letter reason, however many are added.</summary>
    private static readonly int ReasonCount = Enum.GetValues<DeadLetterReason>().Max(r => (int)r) + 1;

    private readonly TimeProvider _clock;
    private readonly Metric? _eventsReceived;
    private readonly Metric? _readingsReceived;
    private readonly Metric? _documentsWritten;
    private readonly Metric? _batchSize;
    private readonly Metric? _freshness;
    private readonly Metric? _endToEnd;
    private readonly Metric? _deviceToStore;
    private readonly LatencyHistogram? _endToEndBuckets;
    private readonly LatencyHistogram? _deviceToStoreBuckets;
    private readonly Metric? _stale;
    private readonly Metric? _deadLetters;
    private readonly Metric? _cosmosLatency;
    private readonly Metric? _cosmosCharge;
    private readonly Metric? _cosmosThrottled;
    private readonly Metric? _cosmosRetries;
    private readonly Metric? _invocationMs;
    private readonly Metric? _invocationFailures;
    private readonly Metric? _systemicFailures;

    /// <param name="client">The process's one client, or null when telemetry is off.</param>
    /// <param name="clock">The clock that stamps "written" for the latency metrics.</param>
    /// <param name="histogramBucketsPerDoubling">See <see cref="TelemetryOptions.HistogramBucketsPerDoubling"/>.</param>
    public PipelineMetrics(TelemetryClient? client, TimeProvider clock, int histogramBucketsPerDoubling = LatencyBuckets.PerDoubling)
    {
        _clock = clock ?? throw new ArgumentNullException(nameof(clock));
        if (client is null)
        {
            return;
        }

        // Cost (devhost/SensorPipeline.DevHost.Telemetry/README.md): a series with a Partition dimension is sent once per
        // partition per period (100 a hub at 100,000 events/s), a series without one once per instance. Partition is kept
        // only where partition heat matters — freshness (one stuck partition shows as lateness) and readings received
        // (a hot partition) — the rest is per function: no chart or alert groups them by partition.
        _eventsReceived = client.GetMetric(MetricNames.EventsReceived, D.Function, PerFunction);
        _readingsReceived = client.GetMetric(MetricNames.ReadingsReceived, D.Function, D.Partition, PerPartition);
        _documentsWritten = client.GetMetric(MetricNames.DocumentsWritten, D.Function, PerFunction);
        _batchSize = client.GetMetric(MetricNames.BatchSize, D.Function, PerFunction);
        _freshness = client.GetMetric(MetricNames.FreshnessMs, D.Function, D.Partition, PerPartition);
        _endToEnd = client.GetMetric(MetricNames.EndToEndMs, D.Function, PerFunction);
        _deviceToStore = client.GetMetric(MetricNames.DeviceToStoreMs, D.Function, PerFunction);
        _endToEndBuckets = new LatencyHistogram(client.GetMetric(MetricNames.EndToEndBucket, D.Function, D.Bucket, PerBucket), histogramBucketsPerDoubling);

        // Every non-empty bucket is one item per instance per period, so the histograms dominate the cost. Device-to-store
        // latency includes device clocks and buffering, so it is kept exact to a coarser bucket (±41 % at 2 per doubling)
        // and costs a quarter of end-to-end's buckets; its exact max still comes from DeviceToStoreMs.
        _deviceToStoreBuckets = new LatencyHistogram(client.GetMetric(MetricNames.DeviceToStoreBucket, D.Function, D.Bucket, PerBucket),
            Math.Min(histogramBucketsPerDoubling, DeviceToStoreBucketsPerDoubling));
        _stale = client.GetMetric(MetricNames.StaleReadings, D.Function, PerFunction);
        _deadLetters = client.GetMetric(MetricNames.DeadLetters, D.Function, D.Reason, PerReason);
        _cosmosLatency = client.GetMetric(MetricNames.CosmosLatencyMs, D.Container, D.Operation, PerContainer);
        _cosmosCharge = client.GetMetric(MetricNames.CosmosRequestCharge, D.Container, D.Operation, PerContainer);
        _cosmosThrottled = client.GetMetric(MetricNames.CosmosThrottled, D.Container, PerContainerOnly);
        _cosmosRetries = client.GetMetric(MetricNames.CosmosRetries, D.Container, D.Status, PerContainer);
        _invocationMs = client.GetMetric(MetricNames.InvocationMs, D.Function, PerFunction);
        _invocationFailures = client.GetMetric(MetricNames.InvocationFailures, D.Function, D.Reason, PerReason);
        _systemicFailures = client.GetMetric(MetricNames.SystemicFailures, D.Function, PerFunction);
    }

    /// <summary>False when telemetry is off; callers may skip work that only feeds metrics.</summary>
    public bool Enabled => _eventsReceived is not null;

    /// <summary>
    /// A batch arrived (every attempt, before anything can fail): freshness — now − the enqueued time of the batch's
    /// oldest event on the hub the function reads, per function and partition. A batch that is retried reports a growing
    /// age on each attempt, so a stalled partition shows here long before its backlog reaches the hub's retention.
    /// </summary>
    public void BatchArrived(string function, string partition, IReadOnlyList<InputEvent> events, DateTimeOffset now)
    {
        ArgumentNullException.ThrowIfNull(events);
        if (!Enabled)
        {
            return;
        }

        var oldest = long.MaxValue;
        foreach (var e in events)
        {
            oldest = Math.Min(oldest, e.Position.EnqueuedTimeUnixMs);
        }

        if (events.Count > 0 && oldest > 0)
        {
            _freshness!.TrackValue(Math.Max(0, now.ToUnixTimeMilliseconds() - oldest), function, partition);
        }
    }

    /// <summary><see cref="BatchArrived"/> and <see cref="BatchReceived(string, string, IReadOnlyList{InputEvent}, int)"/> at once.</summary>
    public void BatchReceived(string function, string partition, IReadOnlyList<InputEvent> events, int readings, DateTimeOffset now)
    {
        BatchArrived(function, partition, events, now);
        BatchReceived(function, partition, events, readings);
    }

    /// <summary>A batch was committed: events and readings received and the batch size (once per batch, not per attempt).</summary>
    public void BatchReceived(string function, string partition, IReadOnlyList<InputEvent> events, int readings)
    {
        ArgumentNullException.ThrowIfNull(events);
        if (!Enabled)
        {
            return;
        }

        _eventsReceived!.TrackValue(events.Count, function);
        _batchSize!.TrackValue(events.Count, function);
        _readingsReceived!.TrackValue(readings, function, partition);
    }

    /// <summary>
    /// One reading's document was written (live or archive): end-to-end latency (its ingestion event's enqueued time →
    /// now) and device-to-store latency (its observed-at → now), each as a value and as a histogram bucket count.
    /// </summary>
    /// <remarks>The partition is not a dimension of these metrics (cost: see the constructor); it is taken so that callers
    /// report every batch the same way and only this class decides which metrics carry it.</remarks>
    public void ReadingWritten(string function, string partition, long ingestionEnqueuedUnixMs, long observedUnixMs)
    {
        if (!Enabled)
        {
            return;
        }

        var now = _clock.GetUtcNow().ToUnixTimeMilliseconds();
        if (ingestionEnqueuedUnixMs > 0)
        {
            double e2e = now - ingestionEnqueuedUnixMs;
            _endToEnd!.TrackValue(e2e, function);
            _endToEndBuckets!.Track(function, e2e);
        }

        if (observedUnixMs > 0)
        {
            double d2s = now - observedUnixMs;
            _deviceToStore!.TrackValue(d2s, function);
            _deviceToStoreBuckets!.Track(function, d2s);
        }
    }

    /// <summary>A batch is fully stored: documents written (live + archive) beside the readings received, and the stale ones archived.</summary>
    /// <remarks>The partition is not a dimension of these metrics, as in <see cref="ReadingWritten"/>.</remarks>
    public void BatchStored(string function, string partition, int documentsWritten, int staleArchived)
    {
        if (!Enabled)
        {
            return;
        }

        _documentsWritten!.TrackValue(documentsWritten, function);
        if (staleArchived > 0)
        {
            _stale!.TrackValue(staleArchived, function);
        }
    }

    /// <summary>Dead letters written by one invocation, counted per reason code (valueSum = dead letters).</summary>
    public void DeadLettered(string function, IReadOnlyList<DeadLetter> deadLetters)
    {
        ArgumentNullException.ThrowIfNull(deadLetters);
        if (!Enabled || deadLetters.Count == 0)
        {
            return;
        }

        Span<int> counts = stackalloc int[ReasonCount];
        foreach (var deadLetter in deadLetters)
        {
            var index = (int)deadLetter.Reason;
            if ((uint)index < (uint)counts.Length)
            {
                counts[index]++;
            }
        }

        for (var i = 0; i < counts.Length; i++)
        {
            if (counts[i] > 0)
            {
                _deadLetters!.TrackValue(counts[i], function, DeadLetterReasons.Code((DeadLetterReason)i));
            }
        }
    }

    /// <summary>One Cosmos DB operation finished (after its retries): latency, RU charge, and a 429 if it ended throttled.</summary>
    public void CosmosCall(string container, string operation, TimeSpan elapsed, double requestCharge, int statusCode)
    {
        if (!Enabled)
        {
            return;
        }

        _cosmosLatency!.TrackValue(elapsed.TotalMilliseconds, container, operation);
        _cosmosCharge!.TrackValue(requestCharge, container, operation);
        if (statusCode == 429)
        {
            _cosmosThrottled!.TrackValue(1, container);
        }
    }

    /// <summary>A transient Cosmos DB answer about to be retried; a 429 also counts as throttled.</summary>
    public void CosmosRetry(string container, int statusCode)
    {
        if (!Enabled)
        {
            return;
        }

        _cosmosRetries!.TrackValue(1, container, statusCode.ToString(CultureInfo.InvariantCulture));
        if (statusCode == 429)
        {
            _cosmosThrottled!.TrackValue(1, container);
        }
    }

    /// <summary>An invocation ended: its duration, and when <paramref name="failure"/> is set (a short kind such as
    /// <c>store-unavailable</c>, <c>invalid-request</c>, <c>cancelled</c>), a failure.</summary>
    public void InvocationCompleted(string function, TimeSpan duration, string? failure = null)
    {
        if (!Enabled)
        {
            return;
        }

        _invocationMs!.TrackValue(duration.TotalMilliseconds, function);
        if (failure is not null)
        {
            _invocationFailures!.TrackValue(1, function, failure);
        }
    }

    /// <summary>A batch was proven systemic: every event failed on its own (see PoisonIsolation).</summary>
    public void SystemicFailure(string function)
    {
        if (Enabled)
        {
            _systemicFailures!.TrackValue(1, function);
        }
    }

    private static MetricConfiguration Configuration(params int[] valuesPerDimension) =>
        new(seriesCountLimit: valuesPerDimension.Aggregate(1, (product, v) => product * v),
            valuesPerDimensionLimits: valuesPerDimension,
            seriesConfig: new MetricSeriesConfigurationForMeasurement(restrictToUInt32Values: false));
}
