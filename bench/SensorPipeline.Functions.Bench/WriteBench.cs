using System.Diagnostics;
using Microsoft.AspNetCore.Builder;
using Microsoft.Azure.Cosmos;
using Microsoft.Extensions.DependencyInjection;
using SensorPipeline.Core.Policies;
using SensorPipeline.Core.Processing;
using SensorPipeline.Core.Readings;
using SensorPipeline.Core.Splitting;
using SensorPipeline.Clients;
using SensorPipeline.Functions.Extensions;
using SensorPipeline.Functions.Processing;
using SensorPipeline.Functions.Invocation;
using SensorPipeline.Functions.Options;
using SensorPipeline.Functions.Storage;

namespace SensorPipeline.Functions.Bench;

/// <summary>
/// The processor's Cosmos write path (<c>BatchWriter.WriteAsync</c>: readings, the live/archive check, the guarded
/// device writes, dead letters), wired by the handler's own DI, against the Cosmos DB emulator, in three settings of
/// <c>Pipeline__BulkMinimumDocuments</c>: never bulk (one request per document: the path before batching), the default,
/// and always bulk. Beside them, the same reading documents written raw three ways — a point upsert each, the SDK's
/// bulk mode, a TransactionalBatch per device — so the choice between bulk and explicit batches is measured in the
/// same run. Rounds of <see cref="Invocations"/> concurrent invocations of <c>invocationSize</c> readings (host.json's
/// largest processor invocation is 500), rotating which contender goes first; then the wall time of single
/// invocations of several sizes.
/// </summary>
internal sealed class WriteBench(string repoRoot, CosmosEmulatorProcess store, int readings, int devices, int parallelism, int invocationSize)
{
    /// <summary>Concurrent invocations per round, as several partitions of one processor run at once at the ceiling.</summary>
    private const int Invocations = 4;

    private static readonly int[] LatencySizes = [5, 20, 100, 500];

    public async Task RunAsync()
    {
        var handlers = new (string Name, int BulkMinimum)[]
        {
            ("point writes (per document; the former path)", 1_000_000),
            ("default (bulk from 20 documents)", new PipelineOptions().BulkMinimumDocuments),
            ("always bulk", 1),
        };
        var apps = new List<WebApplication>();
        foreach (var (_, bulkMinimum) in handlers)
        {
            apps.Add(await StartHandlerAsync(bulkMinimum));
        }

        try
        {
            var options = apps[0].Services.GetRequiredService<Microsoft.Extensions.Options.IOptions<CosmosOptions>>().Value;
            using var pointClient = CosmosClients.Create(store.Endpoint, CosmosClientFactory.ClientOptions(options, parallelism));
            using var bulkClient = CosmosClients.Create(store.Endpoint, CosmosClientFactory.ClientOptions(options, parallelism, bulk: true));
            var raw = (await (await pointClient.CreateDatabaseIfNotExistsAsync("bench-raw")).Database
                .CreateContainerIfNotExistsAsync(new ContainerProperties("readings", "/deviceId"))).Container;
            var rawBulk = bulkClient.GetContainer("bench-raw", "readings");

            var contenders = new List<(Tally Tally, Func<ProcessResult, InvocationRequest, DateTimeOffset, Task> Write)>
            {
                (new Tally("raw: point upsert per document"), (r, _, _) => RawPointAsync(raw, r)),
                (new Tally("raw: SDK bulk (AllowBulkExecution)"), (r, _, _) => RawBulkAsync(rawBulk, r)),
                (new Tally("raw: TransactionalBatch per device"), (r, _, _) => RawTransactionalAsync(raw, r)),
            };
            for (var h = 0; h < handlers.Length; h++)
            {
                var function = Weather(apps[h]);
                contenders.Add((new Tally("handler: " + handlers[h].Name, deviceWrites: true), (r, q, now) => function.WriteAsync(r, q, now, CancellationToken.None)));
            }

            using var batches = new Batches(devices, invocationSize);
            // One unmeasured round first: every path jitted, every client connected and its caches filled.
            foreach (var (_, write) in contenders)
            {
                var warmUp = batches.Next(Invocations);
                await Task.WhenAll(warmUp.Select(i => write(i.Result, i.Request, i.Now)));
            }

            // What this process burns doing nothing (three handler hosts, the clients' timers, the runtime), per wall second:
            // the net figure leaves it out, so a slower contender is not charged for the idle work of its longer run.
            var idle = await Tally.IdleCpuPerSecondAsync(TimeSpan.FromSeconds(10));
            AppDomain.CurrentDomain.FirstChanceException += (_, _) => Interlocked.Increment(ref Tally.Exceptions);
            var rounds = Math.Max(1, readings / (invocationSize * Invocations));
            for (var round = 0; round < rounds; round++)
            {
                for (var c = 0; c < contenders.Count; c++)
                {
                    var (tally, write) = contenders[(c + round) % contenders.Count];
                    var invocations = batches.Next(Invocations);
                    await tally.MeasureAsync(invocations, () => Task.WhenAll(invocations.Select(i => write(i.Result, i.Request, i.Now))));
                }
            }

            Console.WriteLine($"  {rounds} rounds of {Invocations} concurrent invocations × {invocationSize} readings over {devices} devices. CPU: this process (it hosts the handler;");
            Console.WriteLine($"  the emulator is its own process): gross, and net of its idle {idle * 1000:F0} ms CPU per second of wall time; exceptions: first-chance, anywhere in the process");
            foreach (var (tally, _) in contenders)
            {
                tally.Print(contenders[0].Tally, idle);
            }

            Console.WriteLine("  Wall time of one invocation's write path alone (median of 7), by readings per invocation:");
            Console.WriteLine($"    {"handler",-50}" + string.Concat(LatencySizes.Select(s => $"{s,10:N0}")));
            for (var h = 0; h < handlers.Length; h++)
            {
                var function = Weather(apps[h]);
                var cells = new List<string>();
                foreach (var size in LatencySizes)
                {
                    using var sized = new Batches(Math.Min(devices, size), size);
                    var times = new List<double>();
                    for (var i = 0; i < 7; i++)
                    {
                        var invocation = sized.Next(1)[0];
                        var wall = Stopwatch.StartNew();
                        await function.WriteAsync(invocation.Result, invocation.Request, invocation.Now, CancellationToken.None);
                        times.Add(wall.Elapsed.TotalMilliseconds);
                    }

                    times.Sort();
                    cells.Add($"{times[times.Count / 2],8:F0} ms");
                }

                Console.WriteLine($"    {handlers[h].Name,-50}" + string.Concat(cells));
            }
        }
        finally
        {
            foreach (var app in apps)
            {
                await app.DisposeAsync();
            }
        }
    }

    private Task RawPointAsync(Container container, ProcessResult result) =>
        Parallel.ForEachAsync(Enumerable.Range(0, result.Pending.Count), new ParallelOptions { MaxDegreeOfParallelism = parallelism }, async (i, token) =>
        {
            var document = result.Pending[i];
            using var stream = ReadOnlyDocumentStream.Create(result.Bytes(document));
            using var response = await container.UpsertItemStreamAsync(stream, new PartitionKey(document.DeviceId), cancellationToken: token);
            response.EnsureSuccessStatusCode();
        });

    private static Task RawBulkAsync(Container container, ProcessResult result) =>
        Task.WhenAll(result.Pending.Select(async document =>
        {
            using var stream = ReadOnlyDocumentStream.Create(result.Bytes(document));
            using var response = await container.UpsertItemStreamAsync(stream, new PartitionKey(document.DeviceId));
            response.EnsureSuccessStatusCode();
        }));

    private Task RawTransactionalAsync(Container container, ProcessResult result) =>
        Parallel.ForEachAsync(result.Pending.GroupBy(d => d.DeviceId).SelectMany(g => g.Chunk(100)), new ParallelOptions { MaxDegreeOfParallelism = parallelism }, async (group, token) =>
        {
            var batch = container.CreateTransactionalBatch(new PartitionKey(group[0].DeviceId));
            var streams = new List<MemoryStream>(group.Length);
            foreach (var document in group)
            {
                var stream = ReadOnlyDocumentStream.Create(result.Bytes(document));
                streams.Add(stream);
                batch.UpsertItemStream(stream, new TransactionalBatchItemRequestOptions { EnableContentResponseOnWrite = false });
            }

            using var response = await batch.ExecuteAsync(token);
            streams.ForEach(s => s.Dispose());
            if (!response.IsSuccessStatusCode)
            {
                throw new InvalidOperationException($"transactional batch answered {(int)response.StatusCode}: {response.ErrorMessage}");
            }
        });

    private async Task<WebApplication> StartHandlerAsync(int bulkMinimum)
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.Configuration.AddInMemoryCollection(new Dictionary<string, string?>
        {
            ["FUNCTIONS_APP_ROOT_PATH"] = repoRoot,
            ["FUNCTIONS_CUSTOMHANDLER_PORT"] = "0",
            ["Cosmos:AccountEndpoint"] = store.Endpoint.AbsoluteUri,
            ["Cosmos:AuthKey"] = CosmosEmulatorAccount.Key,
            ["Cosmos:DatabaseName"] = "bench-bulk" + bulkMinimum.ToString(System.Globalization.CultureInfo.InvariantCulture),
            ["Cosmos:CreateIfNotExists"] = "true",
            ["Pipeline:WriteParallelism"] = parallelism.ToString(System.Globalization.CultureInfo.InvariantCulture),
            ["Pipeline:BulkMinimumDocuments"] = bulkMinimum.ToString(System.Globalization.CultureInfo.InvariantCulture),
            // The write path only: no splitter invocation, so nothing connects to this (well-formed) address.
            ["EventHubConnection"] = EventHubsEmulatorAccount.ConnectionString(9),
            ["Logging:LogLevel:Default"] = "Warning",
        });
        builder.AddSensorPipelineFunctions();
        // In this process the handler cannot trust the emulator through SSL_CERT_DIR (read once at process start), so
        // its clients are the handler's settings made by the one set-up that accepts the emulator on loopback.
        builder.Services.AddSingleton(sp => CosmosClients.Create(store.Endpoint, CosmosClientFactory.ClientOptions(
            sp.GetRequiredService<Microsoft.Extensions.Options.IOptions<CosmosOptions>>().Value, parallelism)));
        builder.Services.AddKeyedSingleton(StoreContainers.BulkClient, (sp, _) => CosmosClients.Create(store.Endpoint, CosmosClientFactory.ClientOptions(
            sp.GetRequiredService<Microsoft.Extensions.Options.IOptions<CosmosOptions>>().Value, parallelism, bulk: true)));
        var app = builder.Build();
        await app.StartAsync();
        return app;
    }

    private static BatchWriter Weather(WebApplication app) => app.Services.GetRequiredKeyedService<BatchWriter>(ProcessorDefinition.Weather.Name);

    /// <summary>Fresh processed invocations: the same devices every time with rising sequences, as a fleet reports.</summary>
    private sealed class Batches(int devices, int size) : IDisposable
    {
        private readonly Splitter _splitter = new();
        private readonly List<EnvelopeProcessor> _processors = [];
        private readonly List<InvocationRequest> _requests = [];
        private ulong _sequence;

        public List<Invocation> Next(int count)
        {
            Dispose();
            var invocations = new List<Invocation>(count);
            for (var i = 0; i < count; i++)
            {
                var now = DateTimeOffset.UtcNow;
                var perDevice = (ulong)Math.Max(1, size / devices);
                var ingestion = Workload.IngestionEvents(1, size, devices, "dev", mixedKinds: false, now, sequenceBase: _sequence);
                _sequence += perDevice + 1;
                var events = _splitter.Split(ingestion, now.ToUnixTimeMilliseconds()).Weather
                    .Select(envelope => new InputEvent(envelope.ToArray(), new SourcePosition("0", (long)_sequence, now.ToUnixTimeMilliseconds()))).ToArray();
                var processor = new EnvelopeProcessor(SensorPipeline.Protos.SensorKind.Weather, "weather-processor", new StalenessPolicy(StalenessPolicy.DefaultMaxAge));
                _processors.Add(processor);
                var request = new InvocationRequest(null, events, "0", 0);
                _requests.Add(request);
                invocations.Add(new Invocation(processor.Process(events, now.ToUnixTimeMilliseconds()), request, now));
            }

            return invocations;
        }

        public void Dispose()
        {
            _requests.ForEach(r => r.Dispose());
            _processors.ForEach(p => p.Dispose());
            _requests.Clear();
            _processors.Clear();
        }
    }

    private sealed record Invocation(ProcessResult Result, InvocationRequest Request, DateTimeOffset Now);

    /// <summary>Wall and process CPU time of one contender, summed over rounds.</summary>
    private sealed class Tally(string name, bool deviceWrites = false)
    {
        /// <summary>First-chance exceptions in the process so far.</summary>
        public static long Exceptions;

        private readonly Process _self = Process.GetCurrentProcess();
        private TimeSpan _wall;
        private TimeSpan _cpu;
        private long _readings;
        private long _deviceWrites;
        private long _exceptions;

        public double ReadingsPerSecond => _readings / _wall.TotalSeconds;

        public static async Task<double> IdleCpuPerSecondAsync(TimeSpan period)
        {
            using var self = Process.GetCurrentProcess();
            var cpu = self.TotalProcessorTime;
            var wall = Stopwatch.StartNew();
            await Task.Delay(period);
            self.Refresh();
            return (self.TotalProcessorTime - cpu).TotalSeconds / wall.Elapsed.TotalSeconds;
        }

        private double CpuPerReading(double idle) => Math.Max(0, _cpu.TotalMicroseconds - (idle * _wall.TotalMicroseconds)) / _readings;

        public async Task MeasureAsync(IReadOnlyList<Invocation> invocations, Func<Task> action)
        {
            _self.Refresh();
            var cpu = _self.TotalProcessorTime;
            var exceptions = Interlocked.Read(ref Exceptions);
            var wall = Stopwatch.StartNew();
            await action();
            wall.Stop();
            _exceptions += Interlocked.Read(ref Exceptions) - exceptions;
            _self.Refresh();
            _wall += wall.Elapsed;
            _cpu += _self.TotalProcessorTime - cpu;
            _readings += invocations.Sum(i => i.Result.Pending.Count);
            _deviceWrites += deviceWrites ? invocations.Sum(i => i.Result.Latest.Count) : 0;
        }

        public void Print(Tally baseline, double idle)
        {
            var devices = _deviceWrites > 0 ? $" + {_deviceWrites:N0} device writes" : "";
            Console.WriteLine($"  {name,-52} {CpuPerReading(0),6:F1} µs CPU/reading gross ({CpuPerReading(0) / baseline.CpuPerReading(0):F2}×), {CpuPerReading(idle),6:F1} net  {ReadingsPerSecond,7:N0} readings/s  {_exceptions} exceptions  ({_readings:N0} readings{devices} in {_wall.TotalSeconds:F1} s)");
        }
    }
}
