namespace SensorPipeline.ApplicationInsights.Summary;

/// <summary><c>GET /telemetry/summary</c>: what the dashboard shows, computed from the metric aggregates in the window.</summary>
public sealed record TelemetrySummary(
    DateTimeOffset GeneratedAt,
    double WindowSeconds,
    double BinSeconds,
    IngestionSummary Ingestion,
    IReadOnlyList<FunctionSummary> Functions,
    IReadOnlyList<DeadLetterCount> DeadLetters,
    IReadOnlyList<CosmosSummary> Cosmos,
    IReadOnlyList<TimeBin> Timeline);

/// <summary>What reached <c>/v2/track</c> since devhost started; the per-hour rates are the telemetry cost figure.</summary>
public sealed record IngestionSummary(
    long Requests,
    long Items,
    long MetricItems,
    long OtherItems,
    long BytesCompressed,
    long BytesUncompressed,
    DateTimeOffset? FirstRequestAt,
    DateTimeOffset? LastRequestAt,
    double? CompressedBytesPerHour,
    double? UncompressedBytesPerHour,
    double? ItemsPerHour,
    long Evicted);

/// <summary>Totals of one function over the window.</summary>
public sealed record FunctionSummary(
    string Function,
    long EventsReceived,
    long ReadingsReceived,
    long DocumentsWritten,
    long StaleReadings,
    long DeadLetters,
    long Invocations,
    long InvocationFailures,
    long Batches,
    double? BatchSizeAvg,
    double? FreshnessMsMax,
    double? FreshnessMsLast,
    LatencySummary? EndToEnd,
    LatencySummary? DeviceToStore)
{
    /// <summary>Failures the handler raised as systemic (the store or the configuration, never the data): what <c>alert-systemic</c> pages on.</summary>
    public long SystemicFailures { get; init; }
}

/// <summary>Percentiles exact to one bucket (nearest rank over the bucket counts), the exact max and mean.</summary>
public sealed record LatencySummary(long Count, double? P50, double? P90, double? P99, double? P999, double? Max, double? Mean);

public sealed record DeadLetterCount(string Function, string Reason, long Count);

/// <summary>One Cosmos DB container: calls, RU, latency, throttling.</summary>
public sealed record CosmosSummary(string Container, long Calls, double RequestUnits, double? LatencyMsAvg, double? LatencyMsMax, long Throttled, long Retries);

/// <summary>One time bin (start of the aggregation periods that fell in it).</summary>
public sealed record TimeBin(DateTimeOffset Start, IReadOnlyList<FunctionBin> Functions, long Throttled, double? CosmosLatencyMsAvg, double RequestUnits);

/// <summary>One function in one time bin: rates per second, worst freshness, e2e percentiles.</summary>
public sealed record FunctionBin(
    string Function,
    double EventsPerSecond,
    double ReadingsPerSecond,
    double DocumentsPerSecond,
    double? FreshnessMsMax,
    double? EndToEndP50,
    double? EndToEndP90,
    double? EndToEndP99,
    double? EndToEndP999,
    long Stale,
    long DeadLetters);
