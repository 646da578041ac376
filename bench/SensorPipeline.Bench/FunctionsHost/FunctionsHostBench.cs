using System.Buffers;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Text.Json;
using SensorPipeline.Emulators.Common;
using SensorPipeline.FunctionsHost.Config;
using SensorPipeline.FunctionsHost.Hubs;
using SensorPipeline.FunctionsHost.Invocation;

namespace SensorPipeline.FunctionsHost.Bench;

/// <summary>
/// <c>functionshost [iterations]</c>: the local Functions host. Part A: dispatch overhead per invocation in process
/// (request writer + POST + response parse) beside a raw POST of the same bytes. Part B: invocations/s and events/s
/// through the real devhost against a trivial Node handler, beside a raw POST loop to the same kind of handler. Figures
/// go to emulators/SensorPipeline.FunctionsHost/README.md.
/// </summary>
internal static class FunctionsHostBench
{
    public static Command Command()
    {
        var iterations = Numbers.WholeArgument("iterations", "Dispatches measured per batch size in part A", 20_000, 1, 10_000_000);
        var command = new Command("functionshost", "The local Functions host: dispatch overhead per invocation, invocations/s through devhost to a trivial handler.") { iterations };
        command.SetAction((parse, token) => BenchRun.RunAsync("functionshost", async _ =>
        {
            await DispatchOverhead.RunAsync(parse.GetValue(iterations));
            await EndToEnd.RunAsync(batchSize: 1, events: 8_000);
            await EndToEnd.RunAsync(batchSize: 100, events: 200_000);
        }, token));
        return command;
    }
}

internal static class DispatchOverhead
{
    private static readonly byte[] Answer = """{"Outputs":{},"Logs":[],"ReturnValue":null}"""u8.ToArray();

    public static async Task RunAsync(int iterations)
    {
        await using var app = await StartStubHandlerAsync();
        var port = new Uri(app.Urls.First()).Port;

        using var http = new HttpClient(new SocketsHttpHandler { UseProxy = false }) { Timeout = Timeout.InfiniteTimeSpan };
        var client = new HandlerClient(http, "4.1044.100.0");
        foreach (var batchSize in new[] { 1, 100 })
        {
            await CompareAsync(http, client, port, batchSize, iterations);
        }

        await app.StopAsync();
    }

    private static async Task<WebApplication> StartStubHandlerAsync()
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.Logging.ClearProviders();
        builder.WebHost.ConfigureKestrel(k => k.Listen(IPAddress.Loopback, 0));
        var app = builder.Build();
        app.MapPost("/{name}", async (HttpContext context) =>
        {
            await context.Request.Body.CopyToAsync(Stream.Null);
            context.Response.ContentType = "application/json";
            await context.Response.Body.WriteAsync(Answer);
        });
        try
        {
            await app.StartAsync();
            return app;
        }
        catch
        {
            await app.DisposeAsync();
            throw;
        }
    }

    private static async Task CompareAsync(HttpClient http, HandlerClient client, int port, int batchSize, int iterations)
    {
        var function = new FunctionDefinition("Fn", "bench", new TriggerBinding("events", "in", "fn", "Conn", TriggerDataType.Binary), [], null, "127.0.0.1");
        var events = Enumerable.Range(0, batchSize)
            .Select(i => new ReceivedEvent(i, i * 256L, DateTimeOffset.UtcNow, null, new byte[200], new Dictionary<string, object?>()))
            .ToArray();
        using var writer = new InvocationRequestWriter();
        var body = new ArrayBufferWriter<byte>(64 * 1024);
        InvocationBatch Batch() => new(function, "0", events, true, null, DateTime.UtcNow, Guid.NewGuid());
        writer.Write(body, Batch());
        var prebuilt = body.WrittenSpan.ToArray();
        var uri = new Uri($"http://127.0.0.1:{port}/Fn");

        async Task Baseline()
        {
            using var content = new ByteArrayContent(prebuilt);
            using var response = await http.PostAsync(uri, content);
            _ = await response.Content.ReadAsByteArrayAsync();
        }

        async Task Ours()
        {
            body.ResetWrittenCount();
            writer.Write(body, Batch());
            _ = await client.InvokeAsync(port, function, Guid.NewGuid(), body, CancellationToken.None);
        }

        // Warm both paths, then measure alternately so drift hits both.
        for (var i = 0; i < 2000; i++)
        {
            await Baseline();
            await Ours();
        }

        (var baseUs, var baseAlloc) = await MeasureAsync(Baseline, iterations);
        (var oursUs, var oursAlloc) = await MeasureAsync(Ours, iterations);
        var writeOnly = Stopwatch.StartNew();
        for (var i = 0; i < iterations; i++)
        {
            body.ResetWrittenCount();
            writer.Write(body, Batch());
        }

        var writeUs = writeOnly.Elapsed.TotalMicroseconds / iterations;
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"A dispatch, {batchSize,3} events/invocation ({prebuilt.Length,6} B body): raw POST {baseUs,7:F1} µs ({baseAlloc,7:F0} B alloc) | devhost invoke {oursUs,7:F1} µs ({oursAlloc,7:F0} B alloc) | overhead {oursUs - baseUs,6:F1} µs, of which request writing {writeUs,6:F1} µs"));
    }

    private static async Task<(double Microseconds, double AllocatedBytes)> MeasureAsync(Func<Task> action, int iterations)
    {
        var allocated = GC.GetTotalAllocatedBytes(precise: true);
        var stopwatch = Stopwatch.StartNew();
        for (var i = 0; i < iterations; i++)
        {
            await action();
        }

        stopwatch.Stop();
        return (stopwatch.Elapsed.TotalMicroseconds / iterations, (GC.GetTotalAllocatedBytes(precise: true) - allocated) / (double)iterations);
    }
}

internal static class EndToEnd
{
    private const int Partitions = 4;

    public static async Task RunAsync(int batchSize, int events)
    {
        var root = Path.Combine(Path.GetTempPath(), "fh-bench-" + Guid.NewGuid().ToString("N")[..8]);
        Directory.CreateDirectory(Path.Combine(root, "Fn"));
        var handler = Path.Combine(AppContext.BaseDirectory, "trivial-handler.js");
        await using var azurite = await AzuriteProcess.StartAsync();
        WriteApp(root, handler, batchSize, azurite.ConnectionString);

        var devhost = await DevHostProcess.StartAsync(new DevHostStart
        {
            AppRoot = root,
            DataDirectory = Path.Combine(root, ".data"),
            Settings = ["EventHubs:Sas:AllowAnonymous=true", "EventHubs:Durability=None", "Logging:LogLevel:Default=Warning"],
        });
        var url = devhost.BaseAddress;
        using var http = new HttpClient { BaseAddress = url, Timeout = TimeSpan.FromMinutes(2), DefaultRequestHeaders = { { "X-DevHost-Admin", "1" } } }; // pause/resume are admin endpoints
        try
        {
            // Build a backlog while paused, then time the drain: every partition's checkpoint reaching its last event.
            (await http.PostAsync(new Uri("admin/functions/Fn/pause", UriKind.Relative), null)).EnsureSuccessStatusCode();
            var perPartition = events / Partitions;
            await SendBacklogAsync(http, perPartition);

            long last = (((perPartition + 499) / 500) * 500) - 1;
            var invocations = Partitions * (int)Math.Ceiling((last + 1) / (double)batchSize);
            var stopwatch = Stopwatch.StartNew();
            (await http.PostAsync(new Uri("admin/functions/Fn/resume", UriKind.Relative), null)).EnsureSuccessStatusCode();
            await Eventually.UntilAsync(async token =>
            {
                using var status = JsonDocument.Parse(await http.GetStringAsync(new Uri("status/functions", UriKind.Relative), token));
                return status.RootElement.GetProperty("functions")[0].GetProperty("partitions").EnumerateArray()
                    .All(p => p.GetProperty("checkpointSequenceNumber") is { ValueKind: JsonValueKind.Number } n && n.GetInt64() == last);
            }, $"every partition checkpointed at {last}", TimeSpan.FromMinutes(30), TimeSpan.FromMilliseconds(20));

            stopwatch.Stop();
            var baseline = await RawHandlerLoopAsync(handler, batchSize, Math.Min(invocations, 20_000));
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"B devhost, {batchSize,3} events/invocation, {Partitions} partitions, checkpoints in azurite: {invocations / stopwatch.Elapsed.TotalSeconds,8:F0} invocations/s, {(last + 1) * Partitions / stopwatch.Elapsed.TotalSeconds,9:F0} events/s | raw POST loop to the same handler, {Partitions} concurrent: {baseline,8:F0} requests/s"));
        }
        finally
        {
            await devhost.DisposeAsync();
            Directory.Delete(root, recursive: true);
        }
    }

    private static void WriteApp(string root, string handler, int batchSize, string storage)
    {
        File.WriteAllText(Path.Combine(root, "host.json"), $$$"""
            {"version": "2.0", "customHandler": {"description": {"defaultExecutablePath": "node", "arguments": ["{{{handler}}}"]}},
             "extensions": {"eventHubs": {"maxEventBatchSize": {{{batchSize}}} } } }
            """);
        File.WriteAllText(Path.Combine(root, "eventhubs.emulator.json"), $$$"""
            {"UserConfig": {"NamespaceConfig": [{"Type": "EventHub", "Name": "bench", "Entities": [
              {"Name": "in", "PartitionCount": "{{{Partitions}}}", "ConsumerGroups": [{"Name": "fn"}]}]}]}}
            """);
        File.WriteAllText(Path.Combine(root, "local.settings.json"), JsonSerializer.Serialize(new Dictionary<string, object>
        {
            ["Values"] = new Dictionary<string, string> { ["Conn"] = "Endpoint=sb://127.0.0.1:1;SharedAccessKeyName=k;SharedAccessKey=v", ["AzureWebJobsStorage"] = storage },
        }));
        File.WriteAllText(Path.Combine(root, "Fn", "function.json"), """
            {"bindings": [{"type": "eventHubTrigger", "direction": "in", "name": "events", "eventHubName": "in", "consumerGroup": "fn",
              "connection": "Conn", "cardinality": "many", "dataType": "binary"}]}
            """);
    }

    // Whole posts of 500: each partition gets perPartition rounded up, which is where the drain's last checkpoint lands.
    private static async Task SendBacklogAsync(HttpClient http, int perPartition)
    {
        var chunk = JsonSerializer.Serialize(Enumerable.Range(0, 500).Select(i => new { Body = new string('x', 200) }));
        for (var p = 0; p < Partitions; p++)
        {
            for (var sent = 0; sent < perPartition; sent += 500)
            {
                using var content = new StringContent(chunk, Encoding.UTF8, "application/vnd.microsoft.servicebus.json");
                (await http.PostAsync(new Uri($"in/partitions/{p}/messages", UriKind.Relative), content)).EnsureSuccessStatusCode();
            }
        }
    }

    /// <summary>The handler's own ceiling: requests of the same size as an invocation body, posted by 4 loops.</summary>
    private static async Task<double> RawHandlerLoopAsync(string handler, int batchSize, int requests)
    {
        var port = LoopbackPort.GetFree();
        await using var node = ChildProcess.Start(new ChildProcessOptions
        {
            FileName = "node",
            Arguments = [handler],
            Environment = new Dictionary<string, string?> { ["FUNCTIONS_CUSTOMHANDLER_PORT"] = port.ToString(CultureInfo.InvariantCulture) },
        });
        using var http = new HttpClient(new SocketsHttpHandler { UseProxy = false });
        var uri = new Uri($"http://127.0.0.1:{port}/Fn");
        await Eventually.UntilAsync(async token =>
        {
            try
            {
                using var ping = await http.GetAsync(uri, token);
                return true;
            }
            catch (HttpRequestException)
            {
                return false; // not listening yet
            }
        }, $"the raw handler listening on port {port}", TimeSpan.FromSeconds(30), TimeSpan.FromMilliseconds(25));

        var body = new byte[300 + (batchSize * 380)];
        Array.Fill(body, (byte)' ');
        body[0] = (byte)'{';
        body[^1] = (byte)'}';
        var remaining = requests;
        var stopwatch = Stopwatch.StartNew();
        await Task.WhenAll(Enumerable.Range(0, Partitions).Select(async worker =>
        {
            while (Interlocked.Decrement(ref remaining) >= 0)
            {
                using var content = new ByteArrayContent(body);
                using var response = await http.PostAsync(uri, content);
                _ = await response.Content.ReadAsByteArrayAsync();
            }
        }));
        stopwatch.Stop();
        return requests / stopwatch.Elapsed.TotalSeconds;
    }
}
