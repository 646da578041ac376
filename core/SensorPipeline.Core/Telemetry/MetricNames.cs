namespace SensorPipeline.Core.Telemetry;

/// <summary>
/// The pre-aggregated metrics the handler sends (Application Insights <c>customMetrics</c>) and their dimensions.
/// One list shared by the handler, the devhost dashboard, the workbook's KQL and the alert rules in
/// infra/app/monitoring.bicep, so a renamed metric breaks a build or a test instead of silently emptying a chart.
/// Never rename one: dashboards and alerts in Azure query these strings.
/// </summary>
public static class MetricNames
{
    /// <summary>Events in a batch, per function (sum = events received, count = batches, sum / count = the batch size).</summary>
    public const string EventsReceived = "EventsReceived";

    /// <summary>Readings in a batch, per function (sum = readings received; the "received" side of received vs written).</summary>
    public const string ReadingsReceived = "ReadingsReceived";

    /// <summary>Documents stored (live + archive) for a batch, per function (the "written" side).</summary>
    public const string DocumentsWritten = "DocumentsWritten";

    /// <summary>Now − ingestion enqueued time of the oldest event in a batch, ms, per function; a partition at or over
    /// the lag threshold gets its own series (<see cref="Dimensions.Partition"/>), the others share <see cref="AllPartitions"/>:
    /// the lateness signal of "Performance tuning - Event streaming" (a consumer falling behind shows here first). The
    /// freshness and stall alerts read this name.</summary>
    public const string FreshnessMs = "FreshnessMs";

    /// <summary>Ingestion enqueued → document written, ms, per function (sum, count, min, max exact), with its histogram in
    /// <see cref="Dimensions.Buckets"/>: one item per function per period.</summary>
    public const string EndToEndMs = "EndToEndMs";

    /// <summary>Device observed-at → document written, ms, per function, with its histogram in <see cref="Dimensions.Buckets"/>
    /// at most 2 buckets per doubling (labels are still LatencyBuckets upper bounds, so the same percentile arithmetic applies).</summary>
    public const string DeviceToStoreMs = "DeviceToStoreMs";

    /// <summary>Readings older than the max age, archived instead of live, per function.</summary>
    public const string StaleReadings = "StaleReadings";

    /// <summary>Dead letters written, per function and reason code. The dead-letter alert reads this name.</summary>
    public const string DeadLetters = "DeadLetters";

    /// <summary>Duration of one Cosmos DB call including its retries, ms, per container and operation.</summary>
    public const string CosmosLatencyMs = "CosmosLatencyMs";

    /// <summary>Request units charged per Cosmos DB call, per container and operation.</summary>
    public const string CosmosRequestCharge = "CosmosRequestCharge";

    /// <summary>Cosmos DB answers 429 (throttled), per container.</summary>
    public const string CosmosThrottled = "CosmosThrottled";

    /// <summary>Cosmos DB retries after a transient answer, per container and status code.</summary>
    public const string CosmosRetries = "CosmosRetries";

    /// <summary>Duration of one invocation, ms, per function (count = invocations).</summary>
    public const string InvocationMs = "InvocationMs";

    /// <summary>Failed invocations, per function and failure kind.</summary>
    public const string InvocationFailures = "InvocationFailures";

    /// <summary>Batches proven systemic (every event failed on its own; nothing dead-lettered, the batch kept), per function.
    /// The systemic-failure alert reads this name.</summary>
    public const string SystemicFailures = "SystemicFailures";

    /// <summary>The <see cref="Dimensions.Partition"/> value of the <see cref="FreshnessMs"/> series that holds every partition under the lag threshold.</summary>
    public const string AllPartitions = "*";

    /// <summary>Dimension names (Application Insights <c>customDimensions</c> keys).</summary>
    public static class Dimensions
    {
        /// <summary>The function name: <c>Splitter</c> or a kind's processor (<c>WeatherProcessor</c>).</summary>
        public const string Function = "Function";

        /// <summary>The Event Hubs partition id of a batch: only on <see cref="FreshnessMs"/>, and only for a partition at or
        /// over the lag threshold (<see cref="AllPartitions"/> otherwise). Every other series is per function, sent once per
        /// instance instead of once per partition: at 100 partitions a hub a per-partition series is the costliest kind.</summary>
        public const string Partition = "Partition";

        /// <summary>A latency histogram: the non-empty buckets as <c>label:count</c> pairs joined by commas, each label a
        /// <see cref="LatencyBuckets.Label"/> (the bucket's upper bound in ms, or <c>inf</c>).</summary>
        public const string Buckets = "Buckets";

        /// <summary>A dead-letter reason code (<see cref="Readings.DeadLetterReasons.Code"/>) or an invocation failure kind.</summary>
        public const string Reason = "Reason";

        /// <summary>A Cosmos DB container name.</summary>
        public const string Container = "Container";

        /// <summary>A Cosmos DB operation: <c>upsert</c>, <c>patch</c>, <c>read</c>, <c>create</c>.</summary>
        public const string Operation = "Operation";

        /// <summary>An HTTP status code as a number (<c>429</c>, <c>503</c>).</summary>
        public const string Status = "Status";
    }
}
