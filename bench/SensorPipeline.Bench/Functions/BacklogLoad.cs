using System.Text.Json;
using SensorPipeline.Core.Readings;

namespace SensorPipeline.Functions.Bench;

/// <summary>The pieces the stack benches share (<c>bench backlog</c>, <c>bench scale</c>): loadgen filling the ingestion
/// hub, the wait until the splitter has forwarded it, and the handler's metrics as devhost received them.</summary>
internal static class BacklogLoad
{
    /// <summary>Every kind's processor (sensor-kinds.json), in the catalog's order.</summary>
    public static readonly IReadOnlyList<string> Processors = [.. SensorKindCatalog.Default.All.Select(static k => k.Processor)];

    private static readonly TimeSpan Poll = TimeSpan.FromSeconds(1);

    // devhost's telemetry and peek of event bodies need the admin header; the client talks to loopback only.
    private static readonly HttpClient Http = new() { Timeout = TimeSpan.FromSeconds(60), DefaultRequestHeaders = { { "X-DevHost-Admin", "1" } } };

    /// <summary>loadgen flat out: <paramref name="readings"/> in events of <paramref name="readingsPerEvent"/> over
    /// <paramref name="devices"/> devices (shared evenly by the kinds of sensor-kinds.json, rounded up) named after <paramref name="devicePrefix"/>,
    /// recorded in <paramref name="ledger"/>; throws when loadgen fails.</summary>
    public static async Task SendAsync(LocalPipeline pipeline, long readings, int readingsPerEvent, int devices, string devicePrefix, string ledger,
        CancellationToken cancellationToken)
    {
        var perKind = (devices + Processors.Count - 1) / Processors.Count;
        List<string> send =
        [
            pipeline.Layout.LoadGenDll, "--connection", pipeline.EventHubConnection,
            "--count", readings.ToString(CultureInfo.InvariantCulture),
            "--readings-per-event", readingsPerEvent.ToString(CultureInfo.InvariantCulture),
            "--devices-per-kind", perKind.ToString(CultureInfo.InvariantCulture),
            "--device-prefix", devicePrefix, "--ledger", ledger, "--progress-interval", "10s",
        ];
        await using var loadgen = ChildProcess.Start(new ChildProcessOptions
        {
            Name = "loadgen", FileName = "dotnet", Arguments = send, WorkingDirectory = pipeline.Layout.Root,
            LogPath = Path.Combine(pipeline.Options.DataDirectory, "logs", $"loadgen-{devicePrefix}.log"),
        });
        var exit = await loadgen.WaitForExitAsync(cancellationToken);
        if (exit != 0)
        {
            throw new InvalidOperationException($"loadgen exited {exit}; see {loadgen.LogPath}");
        }
    }

    /// <summary>Waits until the splitter has checkpointed every ingestion event (its outputs are sent before it
    /// checkpoints, so they are all in the processor hubs) and returns the envelopes waiting there.</summary>
    public static async Task<long> WaitForSplitAsync(LocalPipeline pipeline, CancellationToken cancellationToken)
    {
        var status = await Eventually.ValueAsync(pipeline.GetFunctionsStatusAsync,
            status => status.Functions.Where(f => !Processors.Contains(f.Name)).All(f => f.Partitions.All(p => p.Lag == 0)),
            "the splitter to forward the backlog", TimeSpan.FromMinutes(30), Poll, cancellationToken: cancellationToken);
        return status.Functions.Where(f => Processors.Contains(f.Name)).Sum(f => f.Partitions.Sum(p => p.Lag));
    }

    /// <summary>One ingestion event's body size: the first on partition 0 (devhost's peek).</summary>
    public static async Task<int> IngestionEventBytesAsync(LocalPipeline pipeline, CancellationToken cancellationToken)
    {
        using var document = JsonDocument.Parse(await Http.GetStringAsync(new Uri(pipeline.DevHostUrl, "ingestion/partitions/0/events?from=0&max=1"), cancellationToken));
        var events = document.RootElement;
        return events.GetArrayLength() == 0 ? 0 : events[0].GetProperty("bodyBase64").GetBytesFromBase64().Length;
    }

    /// <summary>Per function, the sum and the largest single value of a handler metric since devhost started: each
    /// aggregate's sum and max over its period (these metrics are tracked once per invocation).</summary>
    public static async Task<Dictionary<string, (double Sum, double Max)>> MetricAsync(LocalPipeline pipeline, string metric, CancellationToken cancellationToken)
    {
        var uri = new Uri(pipeline.DevHostUrl, $"telemetry/metrics?name={Uri.EscapeDataString(metric)}&limit=1000000");
        using var document = JsonDocument.Parse(await Http.GetStringAsync(uri, cancellationToken));
        var totals = new Dictionary<string, (double Sum, double Max)>(StringComparer.Ordinal);
        foreach (var point in document.RootElement.GetProperty("points").EnumerateArray())
        {
            if (point.GetProperty("dimensions").TryGetProperty(Core.Telemetry.MetricNames.Dimensions.Function, out var function) && function.GetString() is { } name)
            {
                var (sum, max) = totals.GetValueOrDefault(name);
                totals[name] = (sum + point.GetProperty("sum").GetDouble(), Math.Max(max, point.GetProperty("max").GetDouble()));
            }
        }

        return totals;
    }

    /// <summary>A count from <c>loadgen verify --json</c>'s verdict (sent, written, missing, duplicated, …); -1 when absent.</summary>
    public static long VerdictCount(JsonElement verdict, string name) =>
        verdict.ValueKind == JsonValueKind.Object && verdict.TryGetProperty(name, out var value) && value.ValueKind == JsonValueKind.Number ? value.GetInt64() : -1;
}
