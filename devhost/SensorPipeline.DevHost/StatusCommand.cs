using System.Globalization;
using System.Text.Json;

namespace SensorPipeline.DevHost;

/// <summary><c>devhost status [--url U]</c> (<see cref="DevHostCommandLine"/>): prints a running devhost's <c>GET /status</c> as tables: the emulator's hubs and
/// partitions, then (when a function app runs) the handler, invocations per function and checkpoint/lag per partition.</summary>
public static class StatusCommand
{
    public static async Task<int> RunAsync(Uri url, TextWriter output, TextWriter errors)
    {
        ArgumentNullException.ThrowIfNull(url);
        ArgumentNullException.ThrowIfNull(output);
        ArgumentNullException.ThrowIfNull(errors);
        using var http = new HttpClient { Timeout = TimeSpan.FromSeconds(10) };
        string json;
        try
        {
            json = await http.GetStringAsync(new Uri(url, "/status"));
        }
        catch (HttpRequestException e)
        {
            await errors.WriteLineAsync($"devhost status: cannot reach {url}: {e.Message}");
            return 1;
        }

        await output.WriteAsync(Format(json));
        return 0;
    }

    public static string Format(string statusJson)
    {
        using var document = JsonDocument.Parse(statusJson);
        var root = document.RootElement;
        var text = new System.Text.StringBuilder();
        var inv = CultureInfo.InvariantCulture;
        text.AppendLine(inv, $"namespace {root.GetProperty("namespace").GetString()}  durability {root.GetProperty("durability").GetString()}  data {root.GetProperty("dataDirectory").GetString()}");
        text.AppendLine(inv, $"{"hub",-20} {"partition",9} {"first",12} {"last",12} {"bytes",14} {"segments",8}  consumer groups");
        foreach (var hub in root.GetProperty("hubs").EnumerateArray())
        {
            var groups = string.Join(", ", hub.GetProperty("consumerGroups").EnumerateArray().Select(g => g.GetString()));
            foreach (var p in hub.GetProperty("partitions").EnumerateArray())
            {
                var last = p.GetProperty("lastSequenceNumber").GetInt64();
                var first = p.GetProperty("isEmpty").GetBoolean() ? "-" : p.GetProperty("beginningSequenceNumber").GetInt64().ToString(inv);
                text.AppendLine(inv, $"{hub.GetProperty("name").GetString(),-20} {p.GetProperty("id").GetString(),9} {first,12} {(last < 0 ? "-" : last.ToString(inv)),12} {p.GetProperty("bytes").GetInt64(),14:N0} {p.GetProperty("segments").GetInt32(),8}  {groups}");
            }
        }

        if (root.TryGetProperty("functionsHost", out var functionsHost))
        {
            FormatFunctionsHost(functionsHost, text);
        }

        return text.ToString();
    }

    private static void FormatFunctionsHost(JsonElement host, System.Text.StringBuilder text)
    {
        var inv = CultureInfo.InvariantCulture;
        var functions = host.GetProperty("functions");
        text.AppendLine();
        if (functions.GetArrayLength() == 0)
        {
            text.AppendLine("functions host: no function app (no host.json in --app-root, or no functions)");
            return;
        }

        text.AppendLine(inv, $"handler pid {Optional(host.GetProperty("handlerPid"))}  port {Optional(host.GetProperty("handlerPort"))}  starts {host.GetProperty("handlerStarts").GetInt32()}");
        // stalled: partitions stalled now; lost: events retention removed before this consumer group read them.
        // instances (only with several instances): distinct owners with an active ownership record.
        var scaledOut = functions.EnumerateArray().Any(f => f.TryGetProperty("instances", out var n) && n.GetInt32() > 1);
        text.AppendLine(inv, $"{"function",-20} {"hub",-12} {"consumer group",-20} {"paused",6} {"ok",12} {"failed",10} {"retried",10} {"lag",12} {"stalled",8} {"lost",10}{(scaledOut ? $" {"instances",9}" : "")}");
        foreach (var f in functions.EnumerateArray())
        {
            var partitions = f.GetProperty("partitions").EnumerateArray().ToArray();
            var lag = partitions.Sum(p => p.GetProperty("lag").GetInt64());
            var stalled = partitions.Count(p => p.GetProperty("stalled").GetBoolean());
            var lost = partitions.Sum(p => p.GetProperty("retentionGapEvents").GetInt64());
            text.AppendLine(inv, $"{f.GetProperty("name").GetString(),-20} {f.GetProperty("eventHubName").GetString(),-12} {f.GetProperty("consumerGroup").GetString(),-20} {(f.GetProperty("paused").GetBoolean() ? "yes" : "no"),6} {f.GetProperty("invocationsSucceeded").GetInt64(),12:N0} {f.GetProperty("invocationsFailed").GetInt64(),10:N0} {f.GetProperty("invocationsRetried").GetInt64(),10:N0} {lag,12:N0} {stalled,8:N0} {lost,10:N0}{(scaledOut ? $" {Int(f, "instances"),9}" : "")}");
        }

        text.AppendLine();
        // stalled for: seconds since the checkpoint last moved ("-" when not stalled); stalls: how many started;
        // gaps / lost: retention gaps crossed and the events they removed; owner (only with several instances): the
        // instance holding the partition ("-": none) and, in brackets, how often its owner changed.
        text.AppendLine(inv, $"{"consumer group",-20} {"hub",-12} {"partition",9} {"checkpoint",12} {"last",12} {"lag",12} {"stalled for",11} {"oldest age",10} {"stalls",6} {"gaps",6} {"lost",10}  {(scaledOut ? $"{"checkpointed at",-23}  owner (changes)" : "checkpointed at")}");
        foreach (var f in functions.EnumerateArray())
        {
            foreach (var p in f.GetProperty("partitions").EnumerateArray())
            {
                var last = p.GetProperty("lastEnqueuedSequenceNumber").GetInt64();
                var time = p.GetProperty("checkpointTime");
                var at = time.ValueKind == JsonValueKind.Null ? "-" : time.GetDateTimeOffset().UtcDateTime.ToString("yyyy-MM-dd HH:mm:ss.fff", inv);
                text.AppendLine(inv, $"{f.GetProperty("consumerGroup").GetString(),-20} {f.GetProperty("eventHubName").GetString(),-12} {p.GetProperty("partitionId").GetString(),9} {Optional(p.GetProperty("checkpointSequenceNumber")),12} {(last < 0 ? "-" : last.ToString(inv)),12} {p.GetProperty("lag").GetInt64(),12:N0} {Seconds(p.GetProperty("stalledForSeconds")),11} {Seconds(p.GetProperty("oldestUnprocessedAgeSeconds")),10} {p.GetProperty("stalls").GetInt64(),6:N0} {p.GetProperty("retentionGaps").GetInt64(),6:N0} {p.GetProperty("retentionGapEvents").GetInt64(),10:N0}  {(scaledOut ? $"{at,-23}  {Owner(p)}" : at)}");
            }
        }
    }

    private static string Int(JsonElement element, string property) =>
        element.TryGetProperty(property, out var value) && value.ValueKind == JsonValueKind.Number ? value.GetInt64().ToString(CultureInfo.InvariantCulture) : "-";

    private static string Owner(JsonElement partition) =>
        partition.TryGetProperty("owner", out var owner) && owner.ValueKind == JsonValueKind.String
            ? $"{owner.GetString()} ({Int(partition, "ownerChanges")})"
            : "-";

    private static string Seconds(JsonElement value) =>
        value.ValueKind == JsonValueKind.Null ? "-" : value.GetDouble().ToString("0.0", CultureInfo.InvariantCulture) + "s";

    // Null (no checkpoint yet, no handler running) prints as "-", like an empty partition's first sequence number.
    private static string Optional(JsonElement value) =>
        value.ValueKind == JsonValueKind.Null ? "-" : value.GetInt64().ToString(CultureInfo.InvariantCulture);
}
