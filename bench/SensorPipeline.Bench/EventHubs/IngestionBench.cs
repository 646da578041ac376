using System.Net;
using System.Text;
using SensorPipeline.Clients;

namespace SensorPipeline.EventHubs.Bench;

/// <summary>HTTP ingestion from an HttpClient with N connections on loopback against a devhost process, per durability
/// setting. Baseline (same run): the same single POST to an unknown hub, answered 404 before any append — the HTTP
/// stack's own ceiling on this machine.</summary>
internal static class IngestionBench
{
    public static async Task RunAsync(BenchSettings settings, ResultTable table)
    {
        var body = Encoding.UTF8.GetBytes(new string('x', settings.BodyBytes));
        var batchJson = BuildBatch(settings);
        var token = SharedAccessSignature.Create("sb://emulatorns1.servicebus.windows.net/", EventHubsEmulatorAccount.KeyName, EventHubsEmulatorAccount.Key, DateTimeOffset.UtcNow.AddHours(2));
        var first = true;
        foreach (var durability in new[] { "Always", "Interval", "None" })
        {
            // An empty app folder: the emulator alone, with the pipeline's hubs.
            using var directory = new TempDirectory("sp-eh-bench-");
            await using var devHost = await DevHostProcess.StartAsync(new DevHostStart
            {
                AppRoot = Directory.CreateDirectory(Path.Combine(directory.Path, "app")).FullName,
                DataDirectory = Path.Combine(directory.Path, "data"),
                HubsFile = RepoLayout.Current.EventHubsConfig,
                Settings = ["EventHubs:Durability=" + durability],
            });
            using var client = CreateClient(devHost.BaseAddress, settings.Connections, token);
            await MeasureAsync(client, settings, () => new ByteArrayContent(body), "/ingestion/messages", HttpStatusCode.Created, TimeSpan.FromSeconds(1)); // warm-up
            if (first)
            {
                var baseline = await MeasureAsync(client, settings, () => new ByteArrayContent(body), "/nohub/messages", HttpStatusCode.NotFound, TimeSpan.FromSeconds(settings.Seconds));
                table.Add("baseline: single POST → 404 (no append)", "-", baseline.RequestsPerSecond, 0, baseline.P50, baseline.P99);
                first = false;
            }

            var single = await MeasureAsync(client, settings, () => new ByteArrayContent(body), "/ingestion/messages", HttpStatusCode.Created, TimeSpan.FromSeconds(settings.Seconds));
            table.Add($"single-event POST ({settings.BodyBytes} B)", durability, single.RequestsPerSecond, single.RequestsPerSecond, single.P50, single.P99);
            var batch = await MeasureAsync(client, settings, () => BatchContent(batchJson), "/ingestion/messages", HttpStatusCode.Created, TimeSpan.FromSeconds(settings.Seconds));
            table.Add($"batch POST ({settings.BatchSize} × {settings.BodyBytes} B)", durability, batch.RequestsPerSecond, batch.RequestsPerSecond * settings.BatchSize, batch.P50, batch.P99);
        }
    }

    private sealed record Measurement(double RequestsPerSecond, double P50, double P99);

    private static HttpClient CreateClient(Uri baseAddress, int connections, string token)
    {
        var handler = new SocketsHttpHandler { MaxConnectionsPerServer = connections, PooledConnectionLifetime = Timeout.InfiniteTimeSpan, UseProxy = false };
        var client = new HttpClient(handler) { BaseAddress = baseAddress, Timeout = TimeSpan.FromSeconds(60) };
        client.DefaultRequestHeaders.TryAddWithoutValidation("Authorization", token);
        return client;
    }

    private static byte[] BuildBatch(BenchSettings settings)
    {
        var text = new StringBuilder("[");
        for (var i = 0; i < settings.BatchSize; i++)
        {
            text.Append(i == 0 ? "" : ",").Append("{\"Body\":\"").Append('x', settings.BodyBytes).Append("\",\"UserProperties\":{\"n\":").Append(i).Append("}}");
        }

        return Encoding.UTF8.GetBytes(text.Append(']').ToString());
    }

    private static ByteArrayContent BatchContent(byte[] json)
    {
        var content = new ByteArrayContent(json);
        content.Headers.TryAddWithoutValidation("Content-Type", SendEndpointContentType);
        return content;
    }

    private const string SendEndpointContentType = "application/vnd.microsoft.servicebus.json";

    /// <summary>N concurrent senders (one per connection) for a fixed time; counts responses with the expected status.</summary>
    private static async Task<Measurement> MeasureAsync(HttpClient client, BenchSettings settings, Func<HttpContent> content, string path, HttpStatusCode expected, TimeSpan duration)
    {
        var stopwatch = Stopwatch.StartNew();
        var latencies = await Task.WhenAll(Enumerable.Range(0, settings.Connections).Select(async _ =>
        {
            var mine = new List<double>(4096);
            while (stopwatch.Elapsed < duration)
            {
                var started = Stopwatch.GetTimestamp();
                using var response = await client.PostAsync(new Uri(path, UriKind.Relative), content());
                if (response.StatusCode != expected)
                {
                    throw new InvalidOperationException($"{path}: {(int)response.StatusCode} {await response.Content.ReadAsStringAsync()}");
                }

                mine.Add(Stopwatch.GetElapsedTime(started).TotalMilliseconds);
            }

            return mine;
        }));
        var elapsed = stopwatch.Elapsed.TotalSeconds;
        var all = latencies.SelectMany(l => l).Order().ToArray();
        return new Measurement(all.Length / elapsed, all[all.Length / 2], all[Math.Min(all.Length - 1, (int)(all.Length * 0.99))]);
    }
}
