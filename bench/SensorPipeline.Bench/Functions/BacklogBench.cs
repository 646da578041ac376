using System.Net.Http.Headers;
using Google.Protobuf;
using SensorPipeline.Core.Splitting;

namespace SensorPipeline.Functions.Bench;

/// <summary>
/// The largest invocations host.json allows, POSTed to the real handler process (Release, writing to the Cosmos DB
/// emulator), with the handler's peak resident memory (VmHWM, reset before each invocation through
/// <c>/proc/&lt;pid&gt;/clear_refs</c>) and the invocation's duration, beside a small invocation in the same run.
/// </summary>
internal sealed class BacklogBench(CosmosEmulatorProcess store, string eventHubConnection, int rounds, int events, string? handlerDll = null)
{
    /// <summary>The local emulator's well-known key (not a secret).</summary>
    private const string EmulatorKey = SensorPipeline.Clients.CosmosEmulatorAccount.Key;

    /// <summary>host.json's extensions.eventHubs.maxEventBatchSize as shipped: the events of the largest invocation.</summary>
    public const int ShippedMaxEventBatchSize = 2;

    /// <summary>Under Event Hubs' 1 MB event limit (1,048,576 bytes), as a producer batching readings would fill it.</summary>
    private const int IngestionEventBytes = 1_000_000;

    /// <summary>Unknown-field bytes per reading so that 250 readings make an envelope near the 983,040-byte text limit.</summary>
    private const int ReadingPadding = 2_800;

    public async Task RunAsync()
    {
        using var appRoot = new TempDirectory("backlog-bench-");
        var (handler, address) = await StartHandlerAsync(AppRoot(appRoot.Path));
        using var process = handler;
        using var http = new HttpClient { BaseAddress = address, Timeout = TimeSpan.FromMinutes(10) };
        var pid = handler.Id;
        Console.WriteLine($"  handler {handlerDll ?? "(this build)"}, pid {pid}, RSS at start {HandlerMemory.ResidentKb(pid)} kB; {rounds} rounds per case, peak = VmHWM reset before each invocation");
        Console.WriteLine("  | case | request body | readings | documents written | duration (median / max) | handler peak RSS (max) |");
        Console.WriteLine("  |---|---|---|---|---|---|");

        // Warm-up: JIT, connection pools, containers.
        await MeasureAsync(http, pid, "Splitter", round => Small(round, "warm"), rounds: 2, print: false);
        await MeasureAsync(http, pid, "Splitter", round => Small(round, "small"), rounds, print: true, name: $"small (baseline): splitter, {events} events × 1 reading");
        await MeasureAsync(http, pid, "Splitter", SplitterWorst, rounds, print: true, name: $"splitter: {events} ingestion events of ≤ 1 MB");
        await MeasureAsync(http, pid, "WeatherProcessor", ProcessorWorst, rounds, print: true, name: $"processor: {events} envelopes near 983,040 B");
    }

    private static async Task MeasureAsync(HttpClient http, int pid, string function, Func<int, (byte[] Body, int Readings, int Documents)> build, int rounds,
        bool print, string? name = null)
    {
        var durations = new List<double>();
        long peak = 0;
        (byte[] Body, int Readings, int Documents) last = default;
        for (var round = 0; round < rounds; round++)
        {
            last = build(round);
            HandlerMemory.ResetPeak(pid);
            var started = Stopwatch.GetTimestamp();
            using var content = new StreamContent(new MemoryStream(last.Body));
            content.Headers.ContentType = new MediaTypeHeaderValue("application/json");
            using var response = await http.PostAsync(new Uri("/" + function, UriKind.Relative), content);
            var text = await response.Content.ReadAsStringAsync();
            durations.Add(Stopwatch.GetElapsedTime(started).TotalSeconds);
            if (!response.IsSuccessStatusCode)
            {
                throw new InvalidOperationException($"{function} answered {(int)response.StatusCode}: {text}");
            }

            peak = Math.Max(peak, HandlerMemory.PeakKb(pid));
        }

        if (print)
        {
            durations.Sort();
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"  | {name} | {(last.Body?.Length ?? 0) / 1e6:F2} MB | {last.Readings:N0} | {last.Documents:N0} | {durations[durations.Count / 2]:F2} s / {durations[^1]:F2} s | {peak / 1024.0:F0} MB |"));
        }
    }

    private (byte[] Body, int Readings, int Documents) Small(int round, string prefix)
    {
        var batch = Workload.IngestionEvents(events, 1, 2, $"{prefix}{round}", mixedKinds: false, DateTimeOffset.UtcNow);
        return (Workload.HostRequest(batch), events, 0);
    }

    /// <summary>Ingestion events as full as the service accepts, mixed kinds: the splitter's largest invocation.</summary>
    private (byte[] Body, int Readings, int Documents) SplitterWorst(int round)
    {
        var sample = Workload.IngestionEvents(1, 100, 100, "size", mixedKinds: true, DateTimeOffset.UtcNow)[0].Body.Length / 100.0;
        var perEvent = (int)(IngestionEventBytes / sample);
        var batch = Workload.IngestionEvents(events, perEvent, 100, $"split{round}", mixedKinds: true, DateTimeOffset.UtcNow);
        return (Workload.HostRequest(batch), perEvent * events, 0);
    }

    /// <summary>
    /// Weather envelopes of 250 readings, each reading carrying unknown fields so the envelopes come near the
    /// 983,040-byte limit: the processor's largest invocation (at 2 events: 500 readings + their 100 device states).
    /// </summary>
    private (byte[] Body, int Readings, int Documents) ProcessorWorst(int round)
    {
        var now = DateTimeOffset.UtcNow;
        var ingestion = Workload.IngestionEvents(events, 250, 100, $"proc{round}", mixedKinds: false, now)
            .Select(e => e with { Body = Padded(e.Body) }).ToList();
        var split = new Splitter().Split(ingestion, now.ToUnixTimeMilliseconds());
        var envelopes = split.Weather.Take(events)
            .Select((body, i) => new InputEvent(body.ToArray(), new Core.Readings.SourcePosition("0", round * 1000 + i, now.ToUnixTimeMilliseconds())))
            .ToList();
        Console.Error.WriteLine(string.Create(CultureInfo.InvariantCulture, $"  processor envelopes: {string.Join(", ", envelopes.Select(e => e.Body.Length.ToString("N0", CultureInfo.InvariantCulture)))} bytes"));
        return (Workload.HostRequest(envelopes), split.WeatherReadings, split.WeatherReadings + 100);
    }

    /// <summary>The batch with an unknown length-delimited field (number 99) of <see cref="ReadingPadding"/> bytes in every reading.</summary>
    private static byte[] Padded(ReadOnlyMemory<byte> batch)
    {
        var parsed = Protos.ReadingBatch.Parser.ParseFrom(batch.Span);
        using var buffer = new MemoryStream();
        var output = new CodedOutputStream(buffer);
        using var field = new MemoryStream();
        var fieldOutput = new CodedOutputStream(field);
        fieldOutput.WriteTag(99, WireFormat.WireType.LengthDelimited);
        fieldOutput.WriteBytes(ByteString.CopyFrom(new byte[ReadingPadding]));
        fieldOutput.Flush();
        var paddingField = field.ToArray();
        foreach (var reading in parsed.Readings)
        {
            output.WriteTag(1, WireFormat.WireType.LengthDelimited);
            output.WriteBytes(ByteString.CopyFrom([.. reading.ToByteArray(), .. paddingField]));
        }

        output.Flush();
        return buffer.ToArray();
    }

    /// <summary>
    /// The app root the handler reads host.json from: the repository's, or for a larger batch a copy with that
    /// maxEventBatchSize (the handler sizes its request cap from it).
    /// </summary>
    private string AppRoot(string scratch)
    {
        if (events == ShippedMaxEventBatchSize)
        {
            return RepoLayout.Current.Root;
        }

        var hostJson = System.Text.Json.Nodes.JsonNode.Parse(File.ReadAllText(RepoLayout.Current.File("host.json")))!;
        hostJson["extensions"]!["eventHubs"]!["maxEventBatchSize"] = events;
        File.WriteAllText(Path.Combine(scratch, "host.json"), hostJson.ToJsonString());
        return scratch;
    }

    private async Task<(ChildProcess Process, Uri Address)> StartHandlerAsync(string appRoot)
    {
        var process = ChildProcess.Start(new ChildProcessOptions
        {
            Name = "handler",
            FileName = "dotnet",
            Arguments = [handlerDll ?? RepoLayout.Current.RequireBuilt("SensorPipeline.Functions", "SensorPipeline.Functions.dll")],
            WorkingDirectory = RepoLayout.Current.Root,
            Environment = new Dictionary<string, string?>
            {
                ["FUNCTIONS_CUSTOMHANDLER_PORT"] = "0",
                ["FUNCTIONS_APP_ROOT_PATH"] = appRoot,
                ["Cosmos__AccountEndpoint"] = store.Endpoint.AbsoluteUri,
                ["Cosmos__AuthKey"] = EmulatorKey,
                // The handler trusts the emulator's certificate as it would any other: through the trust directory.
                ["SSL_CERT_DIR"] = store.SslCertDir,
                ["Cosmos__DatabaseName"] = "backlog-bench",
                ["Cosmos__CreateIfNotExists"] = "true",
                ["EventHubConnection"] = eventHubConnection,
                ["Logging__LogLevel__Default"] = "Warning",
            },
        });
        try
        {
            return (process, await process.WaitForUrlAsync(new System.Text.RegularExpressions.Regex(@"listening on (?<url>http://\S+)"), TimeSpan.FromSeconds(60)));
        }
        catch
        {
            process.Dispose();
            throw;
        }
    }
}
