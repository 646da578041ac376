namespace SensorPipeline.Functions.Telemetry;

/// <summary>
/// Where and how often the handler sends its pre-aggregated metrics. The two Application Insights settings keep
/// their standard names (<c>APPLICATIONINSIGHTS_CONNECTION_STRING</c>, <c>APPLICATIONINSIGHTS_AUTHENTICATION_STRING</c>);
/// the rest binds from configuration section <c>Telemetry</c>.
/// </summary>
internal sealed class TelemetryOptions
{
    public const string Section = "Telemetry";
    public const string ConnectionStringSetting = "APPLICATIONINSIGHTS_CONNECTION_STRING";
    public const string AuthenticationStringSetting = "APPLICATIONINSIGHTS_AUTHENTICATION_STRING";

    /// <summary>
    /// The Application Insights connection string (<c>APPLICATIONINSIGHTS_CONNECTION_STRING</c>). Default unset: telemetry
    /// off, every metric call is a no-op. Locally devhost sets <c>IngestionEndpoint=http://127.0.0.1:PORT/</c>.
    /// </summary>
    public string? ConnectionString { get; set; }

    /// <summary>
    /// <c>APPLICATIONINSIGHTS_AUTHENTICATION_STRING</c>. Default unset (instrumentation-key ingestion, devhost). In Azure
    /// <c>Authorization=AAD;ClientId=&lt;user-assigned identity client id&gt;</c>: local auth is disabled there, so the SDK
    /// must present a Microsoft Entra token.
    /// </summary>
    public string? AuthenticationString { get; set; }

    /// <summary>The longest aggregation period: log alerts evaluate every 5 minutes at most, and the workbook's finest grain is 5 minutes.</summary>
    public static readonly TimeSpan MaxMetricFlushInterval = TimeSpan.FromMinutes(5);

    /// <summary>Default of <see cref="PartitionLagThreshold"/>.</summary>
    public static readonly TimeSpan DefaultPartitionLagThreshold = TimeSpan.FromMinutes(1);

    /// <summary>
    /// How often pre-aggregated metrics are cut and sent (<c>Telemetry__MetricFlushInterval</c>). Default 00:05:00; from
    /// 00:00:01 to 00:05:00. The handler aggregates and cuts the periods itself (not through the SDK's GetMetric, whose cycle is a fixed minute). Cost scales with
    /// series × instances × (1 / interval), never with events: 5 minutes is the alerts' evaluation frequency, so in Azure a
    /// shorter period buys nothing an alert or the workbook shows; devhost sets 00:00:02 so its dashboard moves during a run.
    /// </summary>
    public TimeSpan MetricFlushInterval { get; set; } = MaxMetricFlushInterval;

    /// <summary>
    /// A batch whose freshness (now − enqueued time of its oldest event) is at least this is reported on its partition's own
    /// <c>FreshnessMs</c> series, so the stall alert names the partition; every other batch goes to the function's shared
    /// series (<c>Partition = *</c>). Worst and mean freshness per function are unchanged either way
    /// (<c>Telemetry__PartitionLagThreshold</c>). Default 00:01:00; from 00:00:00 (every partition its own series: the
    /// cost of one series per partition) to 01:00:00 (the stall alert's threshold, so a stalled partition is always named).
    /// </summary>
    public TimeSpan PartitionLagThreshold { get; set; } = DefaultPartitionLagThreshold;

    /// <summary>
    /// Latency histogram resolution sent (<c>Telemetry__HistogramBucketsPerDoubling</c>): 8, 4, 2 or 1. Default 8 (percentiles
    /// exact to 9.05 %). Fewer merge neighbouring LatencyBuckets (4: 19 %, 2: 41 %) and send fewer bucket series; the labels
    /// stay LatencyBuckets labels, so the KQL and the dashboard need no change. The bucket series are most of the cost:
    /// every instance sends one per populated bucket per period.
    /// </summary>
    public int HistogramBucketsPerDoubling { get; set; } = 8;

    public bool Enabled => !string.IsNullOrWhiteSpace(ConnectionString);
}
