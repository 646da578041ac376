using System.Net.Http.Headers;
using System.Text;
using Azure.Messaging.EventHubs;
using Azure.Messaging.EventHubs.Producer;
using SensorPipeline.Clients;

namespace SensorPipeline.EventHubs.Bench;

/// <summary><c>./pipeline bench senders</c>: the sender study "Event Hubs ingestion performance and throughput"
/// (https://vincentlauzon.com/2018/06/05/event-hubs-ingestion-performance-and-throughput/) reproduced against devhost
/// with the official client, same run, same durability: a new connection per event, one by one on a reused connection,
/// batches of 50, the buffered producer — over AMQP and REST, at each number of sends in flight — with events/s and the
/// client's and devhost's CPU per event. Then the durability cost: AMQP one by one with fsync before every disposition
/// (Always) against durability off (None) at the highest number in flight.</summary>
internal static class SendersBench
{
    private const int BatchSize = 50;
    private static readonly int[] InFlight = [1, 8, 64];

    public static async Task RunAsync(BenchSettings settings, TextWriter output)
    {
        var rows = new List<string[]>();
        var body = Encoding.UTF8.GetBytes(new string('x', settings.BodyBytes));
        var always = new Dictionary<string, double>();
        await using (var devHost = await StartAsync("Always"))
        {
            foreach (var n in InFlight)
            {
                foreach (var (name, create) in Scenarios(devHost, body, n))
                {
                    // Each case owns its clients and closes them before the next starts (a buffered producer would
                    // otherwise go on sending into the next case).
                    var (run, owned) = create();
                    var result = await MeasureAsync(devHost, n, TimeSpan.FromSeconds(settings.Seconds), run);
                    await owned.DisposeAsync();
                    always[$"{name}@{n}"] = result.EventsPerSecond;
                    rows.Add(Row(name, n, "Always", result));
                }
            }
        }

        await using (var devHost = await StartAsync("None"))
        {
            var n = InFlight[^1];
            var (run, owned) = AmqpOneByOne(devHost, body);
            var result = await MeasureAsync(devHost, n, TimeSpan.FromSeconds(settings.Seconds), run);
            await owned.DisposeAsync();
            rows.Add(Row("AMQP one by one, reused connection", n, "None", result));
            var ratio = always["AMQP one by one, reused connection@" + n] / result.EventsPerSecond;
            output.WriteLine(string.Create(CultureInfo.InvariantCulture, $"durability cost at {n} in flight (AMQP one by one): Always/None = {ratio:F2} (target ≥ 0.9)"));
        }

        Directories.ForEach(d => d.Dispose());
        Print(rows, output);
        foreach (var n in InFlight.Skip(1))
        {
            var amqp = always["AMQP one by one, reused connection@" + n];
            var rest = always["REST one by one, pooled connections@" + n];
            output.WriteLine(string.Create(CultureInfo.InvariantCulture, $"AMQP/REST one by one at {n} in flight: {amqp / rest:F2}× (target ≥ 2×)"));
        }

        output.WriteLine("the study (1-CPU client against the service): 100 threads, pooled connections — AMQP 3,311 events/s, HTTP 420; one by one on one connection — HTTP 0.024 s, AMQP 0.035 s per event");
        output.WriteLine(string.Create(CultureInfo.InvariantCulture, $"this run: {Environment.ProcessorCount} cores shared by client and devhost, {settings.Seconds} s per case, bodies {settings.BodyBytes} B, batches of {BatchSize}"));
    }

    private sealed record Result(double EventsPerSecond, double ClientMicrosPerEvent, double DevHostMicrosPerEvent);

    private static IEnumerable<(string Name, Func<(Func<CancellationToken, Task<int>> Run, IAsyncDisposable Owned)> Create)> Scenarios(DevHostProcess devHost, byte[] body, int inFlight)
    {
        yield return ("AMQP new connection per event", () => (async ct =>
        {
            await using var producer = new EventHubProducerClient(Connection(devHost), "ingestion");
            await producer.SendAsync([new EventData(body)], ct);
            return 1;
        }, Nothing.Instance));
        yield return ("AMQP one by one, reused connection", () => AmqpOneByOne(devHost, body));
        yield return ($"AMQP batch of {BatchSize}", () =>
        {
            var producer = Shared(devHost);
            return (async ct =>
            {
                await producer.SendAsync(Enumerable.Range(0, BatchSize).Select(_ => new EventData(body)), ct);
                return BatchSize;
            }, producer);
        });
        yield return ("AMQP buffered producer", () => Buffered(devHost, body, inFlight));
        yield return ("REST new connection per event", () => (async ct =>
        {
            using var fresh = Http(devHost, 1);
            return await PostAsync(fresh, new ByteArrayContent(body), ct);
        }, Nothing.Instance));
        yield return ("REST one by one, pooled connections", () =>
        {
            var http = Http(devHost, inFlight);
            return (ct => PostAsync(http, new ByteArrayContent(body), ct), new Owned(http));
        });
        yield return ($"REST batch of {BatchSize}", () =>
        {
            var http = Http(devHost, inFlight);
            var batch = RestBatch(body);
            return (async ct =>
            {
                var content = new ByteArrayContent(batch);
                content.Headers.ContentType = new MediaTypeHeaderValue("application/vnd.microsoft.servicebus.json");
                await PostAsync(http, content, ct);
                return BatchSize;
            }, new Owned(http));
        });
    }

    private static (Func<CancellationToken, Task<int>>, IAsyncDisposable) AmqpOneByOne(DevHostProcess devHost, byte[] body)
    {
        var producer = Shared(devHost);
        return (async ct =>
        {
            await producer.SendAsync([new EventData(body)], ct);
            return 1;
        }, producer);
    }

    private sealed class Nothing : IAsyncDisposable
    {
        public static readonly Nothing Instance = new();

        public ValueTask DisposeAsync() => ValueTask.CompletedTask;
    }

    private sealed class Owned(IDisposable owned) : IAsyncDisposable
    {
        public ValueTask DisposeAsync()
        {
            owned.Dispose();
            return ValueTask.CompletedTask;
        }
    }

    /// <summary>Each sender enqueues and the buffered producer sends on its own schedule; a sender counts what the
    /// producer reported sent since its last call (so the total is what devhost acknowledged).</summary>
    private static (Func<CancellationToken, Task<int>>, IAsyncDisposable) Buffered(DevHostProcess devHost, byte[] body, int inFlight)
    {
        var sent = 0;
        var producer = new EventHubBufferedProducerClient(Connection(devHost), "ingestion", new EventHubBufferedProducerClientOptions { MaximumConcurrentSends = inFlight });
        producer.SendEventBatchSucceededAsync += args =>
        {
            Interlocked.Add(ref sent, args.EventBatch.Count);
            return Task.CompletedTask;
        };
        producer.SendEventBatchFailedAsync += args => Task.FromException(args.Exception);
        return (async ct =>
        {
            if (producer.TotalBufferedEventCount > 10_000)
            {
                await producer.FlushAsync(ct);
            }
            else
            {
                await producer.EnqueueEventAsync(new EventData(body), ct);
            }

            return Interlocked.Exchange(ref sent, 0);
        }, producer);
    }

    private static EventHubProducerClient Shared(DevHostProcess devHost) => new(Connection(devHost), "ingestion");

    private static string Connection(DevHostProcess devHost) =>
        string.Create(CultureInfo.InvariantCulture, $"Endpoint=sb://127.0.0.1:{devHost.BaseAddress.Port};SharedAccessKeyName={EventHubsEmulatorAccount.KeyName};SharedAccessKey={EventHubsEmulatorAccount.Key};UseDevelopmentEmulator=true");

    private static HttpClient Http(DevHostProcess devHost, int connections)
    {
        var token = SharedAccessSignature.Create("sb://emulatorns1.servicebus.windows.net/", EventHubsEmulatorAccount.KeyName, EventHubsEmulatorAccount.Key, DateTimeOffset.UtcNow.AddHours(2));
        var client = new HttpClient(new SocketsHttpHandler { MaxConnectionsPerServer = connections, UseProxy = false }) { BaseAddress = devHost.BaseAddress };
        client.DefaultRequestHeaders.TryAddWithoutValidation("Authorization", token);
        return client;
    }

    private static async Task<int> PostAsync(HttpClient client, HttpContent content, CancellationToken ct)
    {
        using (content)
        using (var response = await client.PostAsync(new Uri("/ingestion/messages", UriKind.Relative), content, ct))
        {
            return response.StatusCode == System.Net.HttpStatusCode.Created ? 1 : throw new InvalidOperationException($"REST send: {(int)response.StatusCode}");
        }
    }

    private static byte[] RestBatch(byte[] body)
    {
        var text = Encoding.UTF8.GetString(body);
        return Encoding.UTF8.GetBytes("[" + string.Join(",", Enumerable.Repeat($"{{\"Body\":\"{text}\"}}", BatchSize)) + "]");
    }

    /// <summary>Data directories of this run, deleted when it ends.</summary>
    private static readonly List<TempDirectory> Directories = [];

    private static async Task<DevHostProcess> StartAsync(string durability)
    {
        var directory = new TempDirectory("sp-eh-senders-");
        Directories.Add(directory);
        return await DevHostProcess.StartAsync(new DevHostStart
        {
            AppRoot = Directory.CreateDirectory(Path.Combine(directory.Path, "app")).FullName,
            DataDirectory = Path.Combine(directory.Path, "data"),
            HubsFile = RepoLayout.Current.EventHubsConfig,
            Settings = ["EventHubs:Durability=" + durability],
        });
    }

    /// <summary><paramref name="inFlight"/> loops calling <paramref name="send"/> for the duration (after a 1 s warm-up);
    /// events counted are those each call reports acknowledged.</summary>
    private static async Task<Result> MeasureAsync(DevHostProcess devHost, int inFlight, TimeSpan duration, Func<CancellationToken, Task<int>> send)
    {
        using (var warmUp = new CancellationTokenSource(TimeSpan.FromSeconds(1)))
        {
            await RunLoopsAsync(inFlight, send, warmUp.Token);
        }

        var server = Process.GetProcessById(devHost.Process.Id);
        var me = Process.GetCurrentProcess();
        var serverCpu = server.TotalProcessorTime;
        var clientCpu = me.TotalProcessorTime;
        var stopwatch = Stopwatch.StartNew();
        using var stop = new CancellationTokenSource(duration);
        var events = await RunLoopsAsync(inFlight, send, stop.Token);
        var seconds = stopwatch.Elapsed.TotalSeconds;
        server.Refresh();
        me.Refresh();
        var perEvent = Math.Max(1, events);
        return new Result(events / seconds,
            (me.TotalProcessorTime - clientCpu).TotalMicroseconds / perEvent,
            (server.TotalProcessorTime - serverCpu).TotalMicroseconds / perEvent);
    }

    private static async Task<long> RunLoopsAsync(int inFlight, Func<CancellationToken, Task<int>> send, CancellationToken stop)
    {
        var counts = await Task.WhenAll(Enumerable.Range(0, inFlight).Select(async _ =>
        {
            long mine = 0;
            while (!stop.IsCancellationRequested)
            {
                try
                {
                    mine += await send(stop);
                }
                catch (OperationCanceledException) when (stop.IsCancellationRequested)
                {
                    break;
                }
            }

            return mine;
        }));
        return counts.Sum();
    }

    private static string[] Row(string name, int inFlight, string durability, Result r)
    {
        var inv = CultureInfo.InvariantCulture;
        var row = new[] { name, inFlight.ToString(inv), durability, r.EventsPerSecond.ToString("N0", inv), r.ClientMicrosPerEvent.ToString("N1", inv), r.DevHostMicrosPerEvent.ToString("N1", inv) };
        Console.Error.WriteLine(string.Join(" | ", row));
        return row;
    }

    private static void Print(List<string[]> rows, TextWriter output)
    {
        string[] header = ["sender", "in flight", "durability", "events/s", "client CPU µs/event", "devhost CPU µs/event"];
        var widths = header.Select((h, i) => Math.Max(h.Length, rows.Max(r => r[i].Length))).ToArray();
        output.WriteLine("| " + string.Join(" | ", header.Select((h, i) => h.PadRight(widths[i]))) + " |");
        output.WriteLine("|" + string.Join("|", widths.Select(w => new string('-', w + 2))) + "|");
        foreach (var row in rows)
        {
            output.WriteLine("| " + string.Join(" | ", row.Select((c, i) => i == 0 || i == 2 ? c.PadRight(widths[i]) : c.PadLeft(widths[i]))) + " |");
        }
    }
}
