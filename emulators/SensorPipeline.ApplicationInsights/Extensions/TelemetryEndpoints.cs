using System.Globalization;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;
using SensorPipeline.ApplicationInsights;
using SensorPipeline.ApplicationInsights.Summary;
using SensorPipeline.Emulators.Common;

namespace Microsoft.AspNetCore.Builder;

/// <summary>devhost's telemetry surface: the SDK's ingestion route, the stored metrics, the summary and the dashboard
/// (emulators/SensorPipeline.ApplicationInsights/telemetry.http has examples).</summary>
public static class TelemetryEndpoints
{
    /// <summary>Route of the live dashboard page.</summary>
    public const string DashboardPath = "/dashboard";

    private static readonly Lazy<byte[]> DashboardHtml = new(() => EmbeddedFile.Read(typeof(TelemetryEndpoints).Assembly, "dashboard.html"));

    public static IEndpointRouteBuilder MapTelemetryEndpoints(this IEndpointRouteBuilder app)
    {
        ArgumentNullException.ThrowIfNull(app);
        app.MapPost("/v2/track", TrackEndpoint.HandleAsync)
            .WithName("TrackTelemetry")
            .WithSummary("Application Insights ingestion as the SDK calls it: gzip newline-delimited JSON envelopes; metric items are kept.");
        app.MapGet("/telemetry/metrics", GetMetrics)
            .WithName("GetTelemetryMetrics")
            .WithSummary("The metric aggregates received, oldest first: ?since=<ISO time>&after=<sequence>&name=<metric>&limit=<n>.");
        app.MapGet("/telemetry/summary", GetSummary)
            .WithName("GetTelemetrySummary")
            .WithSummary("Throughput, freshness, latency percentiles from the bucket counts, stale, dead letters, Cosmos figures, bytes received per hour: ?window=<seconds>&bin=<seconds>, or ?from=<ISO time>&to=<ISO time> for the aggregation periods that started in [from, to).");
        app.MapGet(DashboardPath, () => Results.Bytes(DashboardHtml.Value, "text/html; charset=utf-8"))
            .WithName("GetDashboard")
            .WithSummary("The live dashboard: polls /telemetry/summary and /status/functions every 2 s.");
        return app;
    }

    private static IResult GetMetrics(TelemetryStore store, string? since, long? after, string? name, int? limit)
    {
        DateTimeOffset? from = null;
        if (!string.IsNullOrEmpty(since))
        {
            if (!DateTimeOffset.TryParse(since, CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal, out var parsed))
            {
                return TypedResults.BadRequest(new { error = $"since must be an ISO 8601 time, found '{since}'" });
            }

            from = parsed;
        }

        if (limit is < 1 or > 1_000_000)
        {
            return TypedResults.BadRequest(new { error = $"limit must be from 1 to 1000000, found {limit}" });
        }

        var points = store.Query(from, after ?? 0, name, limit ?? 100_000);
        return TypedResults.Ok(new { points, last = points.Count == 0 ? after ?? 0 : points[^1].Sequence });
    }

    private static IResult GetSummary(TelemetryStore store, TimeProvider clock, double? window, double? bin, string? from, string? to)
    {
        if (window is { } w && (w < 1 || w > 7 * 24 * 3600))
        {
            return TypedResults.BadRequest(new { error = $"window must be from 1 to 604800 seconds, found {w}" });
        }

        if (bin is { } b && (b < 1 || b > 3600))
        {
            return TypedResults.BadRequest(new { error = $"bin must be from 1 to 3600 seconds, found {b}" });
        }

        var binSpan = TimeSpan.FromSeconds(bin ?? 5);
        if (from is null && to is null)
        {
            return TypedResults.Ok(SummaryBuilder.Build(store, clock.GetUtcNow(), TimeSpan.FromSeconds(window ?? 900), binSpan));
        }

        if (window is not null || !TryParseTime(from, out var start) || !TryParseTime(to, out var end) || end <= start)
        {
            return TypedResults.BadRequest(new { error = $"from and to must both be ISO 8601 times with from before to, and without window; found from '{from}', to '{to}'" });
        }

        return TypedResults.Ok(SummaryBuilder.Build(store, clock.GetUtcNow(), start, end, binSpan));
    }

    private static bool TryParseTime(string? text, out DateTimeOffset value)
    {
        value = default;
        return !string.IsNullOrEmpty(text) && DateTimeOffset.TryParse(text, CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal, out value);
    }
}
