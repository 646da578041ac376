using System.Diagnostics;
using Microsoft.AspNetCore.Builder;
using Microsoft.Azure.Cosmos;
using Microsoft.Extensions.DependencyInjection;
using SensorPipeline.Core.Policies;
using SensorPipeline.Core.Processing;
using SensorPipeline.Core.Readings;
using SensorPipeline.Core.Splitting;
using SensorPipeline.CosmosSetup;
using SensorPipeline.DevHost.Common;
using SensorPipeline.Functions.Extensions;
using SensorPipeline.Functions.Functions;
using SensorPipeline.Functions.Invocation;
using SensorPipeline.Functions.Options;
using SensorPipeline.Functions.Storage;

namespace SensorPipeline.Functions.Bench;

/// <summary>
/// The processor's Cosmos write path (readings upserts, the guarded device writes, dead letters: exactly
/// <c>ProcessorFunction.WriteAsync</c>, wired by the handler's own DI, once per device-write strategy) against a
/// plain <c>Parallel.ForEachAsync</c> + <c>UpsertItemStreamAsync</c> loop of the same reading documents, same client
/// settings and parallelism, to the same Cosmos DB emulator, batch by batch, rotating which goes first.
/// </summary>
internal sealed class WriteBench(string repoRoot, CosmosEmulatorProcess store, int readings, int devices, int parallelism)
{
    private const int ReadingsPerBatch = 2000;

    public async Task RunAsync()
    {
        await using var patch = await StartHandlerAsync(DeviceWriteMode.Patch);
        await using var readReplace = await StartHandlerAsync(DeviceWriteMode.ReadReplace);
        var options = patch.Services.GetRequiredService<Microsoft.Extensions.Options.IOptions<CosmosOptions>>().Value;
        using var rawClient = CosmosClients.Create(store.Endpoint, CosmosClientFactory.ClientOptions(options, parallelism));
        var rawDatabase = (await rawClient.CreateDatabaseIfNotExistsAsync("bench-raw")).Database;
        var rawContainer = (await rawDatabase.CreateContainerIfNotExistsAsync(new ContainerProperties("readings", "/deviceId"))).Container;

        var raw = new Tally("raw parallel upsert loop (baseline)");
        var ours = new[]
        {
            (Function: Weather(patch), Tally: new Tally("handler write path, devices by Patch")),
            (Function: Weather(readReplace), Tally: new Tally("handler write path, devices by ReadReplace")),
        };
        using var processor = new EnvelopeProcessor(SensorPipeline.Protos.SensorKind.Weather, "weather-processor", new StalenessPolicy(StalenessPolicy.DefaultMaxAge));
        var splitter = new Splitter();
        var batches = Math.Max(1, readings / ReadingsPerBatch);
        for (var b = 0; b < batches; b++)
        {
            // The same devices in every batch with rising sequences, as a fleet reports: after the first batch each
            // device write is one guarded update (a new device costs a failed update + a create).
            var now = DateTimeOffset.UtcNow;
            var perDevice = (ulong)Math.Max(1, ReadingsPerBatch / devices);
            var ingestion = Workload.IngestionEvents(100, ReadingsPerBatch / 100, devices, "dev", mixedKinds: false, now, sequenceBase: (ulong)b * perDevice);
            var events = splitter.Split(ingestion, now.ToUnixTimeMilliseconds()).Weather
                .Select(envelope => new InputEvent(envelope.ToArray(), new SourcePosition("0", b, now.ToUnixTimeMilliseconds()))).ToArray();
            var result = processor.Process(events, now.ToUnixTimeMilliseconds());
            using var request = new InvocationRequest(null, events, "0", 0);

            var steps = new List<Func<Task>>
            {
                () => raw.MeasureAsync(result.Pending.Count, 0, () => Parallel.ForEachAsync(Enumerable.Range(0, result.Pending.Count),
                    new ParallelOptions { MaxDegreeOfParallelism = parallelism },
                    async (i, token) =>
                    {
                        var document = result.Pending[i];
                        using var stream = ReadOnlyDocumentStream.Create(result.Bytes(document));
                        using var response = await rawContainer.UpsertItemStreamAsync(stream, new PartitionKey(document.DeviceId), cancellationToken: token);
                        response.EnsureSuccessStatusCode();
                    })),
            };
            foreach (var (function, tally) in ours)
            {
                steps.Add(() => tally.MeasureAsync(result.Pending.Count, result.Latest.Count, () => function.WriteAsync(result, request, now, CancellationToken.None)));
            }

            for (var s = 0; s < steps.Count; s++)
            {
                await steps[(s + b) % steps.Count]();
            }
        }

        raw.Print(null);
        foreach (var (_, tally) in ours)
        {
            tally.Print(raw);
        }
    }

    private async Task<WebApplication> StartHandlerAsync(DeviceWriteMode mode)
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.Configuration.AddInMemoryCollection(new Dictionary<string, string?>
        {
            ["FUNCTIONS_APP_ROOT_PATH"] = repoRoot,
            ["FUNCTIONS_CUSTOMHANDLER_PORT"] = "0",
            ["Cosmos:AccountEndpoint"] = store.Endpoint.AbsoluteUri,
            ["Cosmos:AuthKey"] = CosmosEmulatorAccount.Key,
            ["Cosmos:DatabaseName"] = "bench-" + mode.ToString().ToLowerInvariant(),
            ["Cosmos:CreateIfNotExists"] = "true",
            ["Pipeline:WriteParallelism"] = parallelism.ToString(System.Globalization.CultureInfo.InvariantCulture),
            ["Pipeline:DeviceWrite"] = mode.ToString(),
            ["Logging:LogLevel:Default"] = "Warning",
        });
        builder.AddSensorPipelineFunctions();
        // In this process the handler cannot trust the emulator through SSL_CERT_DIR (read once at process start), so
        // its client is the handler's settings made by the one set-up that accepts the emulator on loopback.
        builder.Services.AddSingleton(sp => CosmosClients.Create(store.Endpoint, CosmosClientFactory.ClientOptions(
            sp.GetRequiredService<Microsoft.Extensions.Options.IOptions<CosmosOptions>>().Value, parallelism)));
        var app = builder.Build();
        await app.StartAsync();
        return app;
    }

    private static ProcessorFunction Weather(WebApplication app) => app.Services.GetRequiredKeyedService<ProcessorFunction>(ProcessorDefinition.Weather.Name);

    /// <summary>Wall and process CPU time of one contender, summed over batches.</summary>
    private sealed class Tally(string name)
    {
        private readonly Process _self = Process.GetCurrentProcess();
        private TimeSpan _wall;
        private TimeSpan _cpu;
        private long _readings;
        private long _deviceWrites;

        public double ReadingsPerSecond => _readings / _wall.TotalSeconds;

        public async Task MeasureAsync(int readings, int deviceWrites, Func<Task> action)
        {
            _self.Refresh();
            var cpu = _self.TotalProcessorTime;
            var wall = Stopwatch.StartNew();
            await action();
            wall.Stop();
            _self.Refresh();
            _wall += wall.Elapsed;
            _cpu += _self.TotalProcessorTime - cpu;
            _readings += readings;
            _deviceWrites += deviceWrites;
        }

        public void Print(Tally? baseline)
        {
            var ratio = baseline is null ? "" : $"  = {ReadingsPerSecond / baseline.ReadingsPerSecond:F2}× baseline";
            var devices = _deviceWrites > 0 ? $" + {_deviceWrites:N0} device writes" : "";
            Console.WriteLine($"  {name,-46} {ReadingsPerSecond,7:N0} readings/s{ratio}  ({_readings:N0} readings{devices} in {_wall.TotalSeconds:F1} s; {_cpu.TotalMicroseconds / _readings:F0} µs CPU/reading in this process)");
        }
    }
}
