using System.Text.Json;

namespace SensorPipeline.EndToEnd.Bench;

/// <summary>Reads devhost's <c>GET /telemetry/summary</c> (SummaryModels.cs): documents written and end-to-end latency.</summary>
internal static class Telemetry
{
    /// <summary>
    /// Documents written summed over every function (only the processors write any), and the end-to-end latency as the
    /// worse processor per percentile: the summary's bucket percentiles of two histograms cannot be merged exactly, and
    /// the worse one is an upper bound of the merged figure.
    /// </summary>
    public static (long Documents, LatencyFigures? Latency) Read(JsonElement summary)
    {
        long documents = 0, count = 0;
        double? p50 = null, p90 = null, p99 = null, p999 = null, max = null;
        foreach (var function in summary.GetProperty("functions").EnumerateArray())
        {
            documents += function.GetProperty("documentsWritten").GetInt64();
            if (function.TryGetProperty("endToEnd", out var e2e) && e2e.ValueKind == JsonValueKind.Object && e2e.GetProperty("count").GetInt64() > 0)
            {
                count += e2e.GetProperty("count").GetInt64();
                p50 = Worse(p50, e2e, "p50");
                p90 = Worse(p90, e2e, "p90");
                p99 = Worse(p99, e2e, "p99");
                p999 = Worse(p999, e2e, "p999");
                max = Worse(max, e2e, "max");
            }
        }

        return (documents, count == 0 ? null : new LatencyFigures(count, p50, p90, p99, p999, max));
    }

    private static double? Worse(double? current, JsonElement latency, string name) =>
        latency.TryGetProperty(name, out var value) && value.ValueKind == JsonValueKind.Number
            ? Math.Max(current ?? double.MinValue, value.GetDouble())
            : current;
}
