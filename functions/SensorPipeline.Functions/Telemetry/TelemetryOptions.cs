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

    /// <summary>
    /// How often pre-aggregated metrics are cut and sent (<c>Telemetry__MetricFlushInterval</c>). Default 00:01:00 (the SDK's
    /// own aggregation period); from 00:00:01 to 00:01:00. Cost scales with series × (1 / interval), never with events:
    /// keep the default in Azure; devhost sets 00:00:02 so its dashboard moves during a run.
    /// </summary>
    public TimeSpan MetricFlushInterval { get; set; } = TimeSpan.FromMinutes(1);

    /// <summary>
    /// Latency histogram resolution sent (<c>Telemetry__HistogramBucketsPerDoubling</c>): 8, 4, 2 or 1. Default 8 (percentiles
    /// exact to 9.05 %). Fewer merge neighbouring LatencyBuckets (4: 19 %, 2: 41 %) and send fewer bucket series; the labels
    /// stay LatencyBuckets labels, so the KQL and the dashboard need no change. The bucket series are most of the cost:
    /// every instance sends one per populated bucket per period.
    /// </summary>
    public int HistogramBucketsPerDoubling { get; set; } = 8;

    public bool Enabled => !string.IsNullOrWhiteSpace(ConnectionString);
}
