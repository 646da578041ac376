using System.Globalization;
using Microsoft.ApplicationInsights;
using SensorPipeline.Core.DeadLetters;
using SensorPipeline.Core.Readings;
using SensorPipeline.Core.Splitting;
using SensorPipeline.Core.Telemetry;
using D = SensorPipeline.Core.Telemetry.MetricNames.Dimensions;

namespace SensorPipeline.Functions.Telemetry;

/// <summary>
/// The handler's metrics, all pre-aggregated: values are summed in-process and only one aggregate (sum, count, min, max)
/// per series per period leaves the process (<see cref="MetricAggregates"/>; each latency with its whole histogram in one
/// item, <see cref="BucketedLatencyMetric"/>), so the volume scales with series × periods, never with events, and nothing is
/// sampled away. <see cref="Cut"/> ends a period. Every method is a no-op when telemetry is off
/// (<see cref="TelemetryOptions.ConnectionString"/> unset). Thread-safe.
/// </summary>
internal sealed class PipelineMetrics
{
    /// <summary>Resolution of the device-to-store histogram: at most this many buckets per doubling (see the constructor).</summary>
    internal const int DeviceToStoreBucketsPerDoubling = 2;

    /// <summary>One slot per dead-letter reason, however many are added.</summary>
    private static readonly int ReasonCount = Enum.GetValues<DeadLetterReason>().Max(r => (int)r) + 1;

    private readonly TimeProvider _clock;
    private readonly TelemetryClient? _client;
    private readonly double _partitionLagThresholdMs;
    private readonly MetricAggregates _series = new();
    private readonly BucketedLatencyMetric? _endToEnd;
    private readonly BucketedLatencyMetric? _deviceToStore;
    private DateTimeOffset _periodStart;

    /// <param name="client">The process's one client, or null when telemetry is off.</param>
    /// <param name="clock">The clock that stamps "written" for the latency metrics.</param>
    /// <param name="histogramBucketsPerDoubling">See <see cref="TelemetryOptions.HistogramBucketsPerDoubling"/>.</param>
    /// <param name="partitionLagThreshold">See <see cref="TelemetryOptions.PartitionLagThreshold"/>; default its default.</param>
    public PipelineMetrics(TelemetryClient? client, TimeProvider clock, int histogramBucketsPerDoubling = LatencyBuckets.PerDoubling,
        TimeSpan? partitionLagThreshold = null)
    {
        _clock = clock ?? throw new ArgumentNullException(nameof(clock));
        _partitionLagThresholdMs = (partitionLagThreshold ?? TelemetryOptions.DefaultPartitionLagThreshold).TotalMilliseconds;
        if (client is null)
        {
            return;
        }

        _client = client;
        _periodStart = clock.GetUtcNow();

        // Cost (emulators/SensorPipeline.ApplicationInsights/README.md): every series is sent once per instance per period, a
        // series with a Partition dimension once per partition (100 a hub at 100,000 events/s). Partition is only where
        // a question needs it — which partition is stuck — and only for the partitions over the lag threshold; all the
        // others share one series per function (FreshnessMs, Partition = AllPartitions). No chart or alert groups any
        // other metric by partition (partition heat comes from Cosmos DB's own logs: partition-heat.kql).
        _endToEnd = new BucketedLatencyMetric(MetricNames.EndToEndMs, histogramBucketsPerDoubling);

        // Device-to-store latency includes device clocks and buffering, so it is kept exact to a coarser bucket (±41 % at
        // 2 per doubling): a shorter Buckets property. Its sum, count and max stay exact.
        _deviceToStore = new BucketedLatencyMetric(MetricNames.DeviceToStoreMs, Math.Min(histogramBucketsPerDoubling, DeviceToStoreBucketsPerDoubling));
    }

    /// <summary>False when telemetry is off; callers may skip work that only feeds metrics.</summary>
    public bool Enabled => _client is not null;

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
            var lateness = Math.Max(0, now.ToUnixTimeMilliseconds() - oldest);
            _series.Track(MetricNames.FreshnessMs, lateness, D.Function, function, D.Partition, lateness >= _partitionLagThresholdMs ? partition : MetricNames.AllPartitions);
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

        // One value per batch: valueSum is the events, valueCount the batches, their ratio the batch size.
        _series.Track(MetricNames.EventsReceived, events.Count, D.Function, function);
        _series.Track(MetricNames.ReadingsReceived, readings, D.Function, function);
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
            _endToEnd!.Track(function, now - ingestionEnqueuedUnixMs);
        }

        if (observedUnixMs > 0)
        {
            _deviceToStore!.Track(function, now - observedUnixMs);
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

        _series.Track(MetricNames.DocumentsWritten, documentsWritten, D.Function, function);
        if (staleArchived > 0)
        {
            _series.Track(MetricNames.StaleReadings, staleArchived, D.Function, function);
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
                _series.Track(MetricNames.DeadLetters, counts[i], D.Function, function, D.Reason, DeadLetterReasons.Code((DeadLetterReason)i));
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

        _series.Track(MetricNames.CosmosLatencyMs, elapsed.TotalMilliseconds, D.Container, container, D.Operation, operation);
        _series.Track(MetricNames.CosmosRequestCharge, requestCharge, D.Container, container, D.Operation, operation);
        if (statusCode == 429)
        {
            _series.Track(MetricNames.CosmosThrottled, 1, D.Container, container);
        }
    }

    /// <summary>A transient Cosmos DB answer about to be retried; a 429 also counts as throttled.</summary>
    public void CosmosRetry(string container, int statusCode)
    {
        if (!Enabled)
        {
            return;
        }

        _series.Track(MetricNames.CosmosRetries, 1, D.Container, container, D.Status, statusCode.ToString(CultureInfo.InvariantCulture));
        if (statusCode == 429)
        {
            _series.Track(MetricNames.CosmosThrottled, 1, D.Container, container);
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

        _series.Track(MetricNames.InvocationMs, duration.TotalMilliseconds, D.Function, function);
        if (failure is not null)
        {
            _series.Track(MetricNames.InvocationFailures, 1, D.Function, function, D.Reason, failure);
        }
    }

    /// <summary>A batch was proven systemic: every event failed on its own (see PoisonIsolation).</summary>
    public void SystemicFailure(string function)
    {
        if (Enabled)
        {
            _series.Track(MetricNames.SystemicFailures, 1, D.Function, function);
        }
    }

    /// <summary>
    /// Ends the aggregation period: every series that saw a value and each function's histograms become one item each,
    /// stamped with the period's length, and go to the channel. <see cref="MetricFlusher"/> calls this at each
    /// <see cref="TelemetryOptions.MetricFlushInterval"/>. Called from one thread at a time.
    /// </summary>
    public void Cut()
    {
        if (_client is null)
        {
            return;
        }

        var start = _periodStart;
        var now = _clock.GetUtcNow();
        _periodStart = now;
        _series.Send(_client, start, now - start);
        _endToEnd!.Send(_client, start, now - start);
        _deviceToStore!.Send(_client, start, now - start);
    }
}
