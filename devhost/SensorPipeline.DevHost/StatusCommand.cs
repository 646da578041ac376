using System.Globalization;
using System.Text.Json;

namespace SensorPipeline.DevHost;

/// <summary><c>devhost status [--url U]</c>: prints a running devhost's <c>GET /status</c> as a table.</summary>
public static class StatusCommand
{
    public static async Task<int> RunAsync(IReadOnlyList<string> args, TextWriter output, TextWriter errors)
    {
        ArgumentNullException.ThrowIfNull(args);
        ArgumentNullException.ThrowIfNull(output);
        ArgumentNullException.ThrowIfNull(errors);
        var url = $"http://127.0.0.1:{DevHostArguments.DefaultPort}";
        if (args is ["--url", var given])
        {
            url = given;
        }
        else if (args.Count > 0)
        {
            await errors.WriteLineAsync(DevHostArguments.Usage);
            return 2;
        }

        using var http = new HttpClient { Timeout = TimeSpan.FromSeconds(10) };
        string json;
        try
        {
            json = await http.GetStringAsync(new Uri(new Uri(url), "/status"));
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

        return text.ToString();
    }
}
