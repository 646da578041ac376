using System.Globalization;
using System.Text.Json;

namespace SensorPipeline.ApplicationInsights;

/// <summary>One metric of a <c>MetricData</c> envelope, as parsed from the wire.</summary>
internal sealed record ParsedMetric(DateTimeOffset Time, string Name, double Sum, long Count, double Min, double Max, double IntervalMs,
    string? RoleInstance, IReadOnlyDictionary<string, string> Dimensions);

/// <summary>
/// Parses the Application Insights v2 envelope format the SDK posts: one JSON object per line,
/// <c>{"name":"AppMetrics","time":…,"iKey":…,"tags":{…},"data":{"baseType":"MetricData","baseData":{"metrics":[{"name","value","count","min","max"}],"properties":{…}}}}</c>.
/// Items of other types (requests, traces) are accepted and counted but not kept: the handler sends none.
/// </summary>
internal static class EnvelopeParser
{
    private const string IntervalProperty = "_MS.AggregationIntervalMs";

    /// <summary>Parses one line; on success adds its metrics (none for other item types) and returns null, else the reason.</summary>
    public static string? TryParse(ReadOnlyMemory<byte> line, List<ParsedMetric> metrics)
    {
        // System.Text.Json checks a string's bytes only when it is read, and throws then (found by fuzzing).
        if (!System.Text.Unicode.Utf8.IsValid(line.Span))
        {
            return "not UTF-8";
        }

        JsonDocument document;
        try
        {
            document = JsonDocument.Parse(line);
        }
        catch (JsonException e)
        {
            return "not JSON: " + e.Message;
        }

        using (document)
        {
            var root = document.RootElement;
            if (root.ValueKind != JsonValueKind.Object)
            {
                return "an envelope must be a JSON object";
            }

            if (!root.TryGetProperty("time", out var timeElement) || timeElement.ValueKind != JsonValueKind.String
                || !DateTimeOffset.TryParse(timeElement.GetString(), CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal, out var time))
            {
                return "field 'time' is missing or not a date";
            }

            if (!root.TryGetProperty("data", out var data) || data.ValueKind != JsonValueKind.Object)
            {
                return "field 'data' is missing";
            }

            if (!data.TryGetProperty("baseType", out var baseType) || baseType.ValueKind != JsonValueKind.String)
            {
                return "field 'data.baseType' is missing";
            }

            if (!baseType.ValueEquals("MetricData"))
            {
                return null; // another item type: accepted, counted, not kept
            }

            return ParseMetricData(root, data, time, metrics);
        }
    }

    private static string? ParseMetricData(JsonElement root, JsonElement data, DateTimeOffset time, List<ParsedMetric> metrics)
    {
        if (!data.TryGetProperty("baseData", out var baseData) || !baseData.TryGetProperty("metrics", out var list) || list.ValueKind != JsonValueKind.Array)
        {
            return "MetricData without 'baseData.metrics'";
        }

        var dimensions = new Dictionary<string, string>(StringComparer.Ordinal);
        double intervalMs = 0;
        if (baseData.TryGetProperty("properties", out var properties) && properties.ValueKind == JsonValueKind.Object)
        {
            foreach (var p in properties.EnumerateObject())
            {
                var value = p.Value.ValueKind == JsonValueKind.String ? p.Value.GetString() ?? "" : p.Value.GetRawText();
                if (p.NameEquals(IntervalProperty))
                {
                    _ = double.TryParse(value, NumberStyles.Float, CultureInfo.InvariantCulture, out intervalMs);
                }
                else
                {
                    dimensions[p.Name] = value;
                }
            }
        }

        string? roleInstance = null;
        if (root.TryGetProperty("tags", out var tags) && tags.ValueKind == JsonValueKind.Object
            && tags.TryGetProperty("ai.cloud.roleInstance", out var instance) && instance.ValueKind == JsonValueKind.String)
        {
            roleInstance = instance.GetString();
        }

        var added = 0;
        foreach (var m in list.EnumerateArray())
        {
            if (!m.TryGetProperty("name", out var name) || name.ValueKind != JsonValueKind.String || string.IsNullOrEmpty(name.GetString())
                || !TryGetNumber(m, "value", out var sum))
            {
                return "a metric needs 'name' and a numeric 'value'";
            }

            var count = m.TryGetProperty("count", out var c) && c.ValueKind == JsonValueKind.Number && c.TryGetInt64(out var n) ? n : 1;
            var min = TryGetNumber(m, "min", out var minValue) ? minValue : sum;
            var max = TryGetNumber(m, "max", out var maxValue) ? maxValue : sum;
            metrics.Add(new ParsedMetric(time, name.GetString()!, sum, count, min, max, intervalMs, roleInstance, dimensions));
            added++;
        }

        return added == 0 ? "MetricData with an empty 'metrics' array" : null;
    }

    /// <summary>A numeric property; false when absent or of another type (TryGetDouble throws on a string, found by fuzzing).</summary>
    private static bool TryGetNumber(JsonElement metric, string name, out double value)
    {
        value = 0;
        return metric.TryGetProperty(name, out var element) && element.ValueKind == JsonValueKind.Number && element.TryGetDouble(out value);
    }
}
