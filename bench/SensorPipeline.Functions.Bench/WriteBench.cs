using System.Diagnostics;
using Microsoft.AspNetCore.Builder;
using Microsoft.Azure.Cosmos;
using Microsoft.Extensions.DependencyInjection;
using SensorPipeline.Core.Policies;
using SensorPipeline.Core.Processing;
using SensorPipeline.Core.Readings;
using SensorPipeline.Core.Splitting;
using SensorPipeline.Functions.Extensions;
using SensorPipeline.Functions.Functions;
using SensorPipeline.Functions.Invocation;
using SensorPipeline.Functions.Options;
using SensorPipeline.Functions.Storage;

namespace SensorPipeline.Functions.Bench;

/// <summary>
/// The processor's Cosmos write path (readings upserts, the guarded device writes, dead letters: exactly
/// <c>ProcessorFunction.WriteAsync</c>, wired by the handler's own DI) against a plain
/// <c>Parallel.ForEachAsync</c> + <c>UpsertItemStreamAsync</c> loop of the same reading documents, same client
/// settings and parallelism, to the same stand-in, batch by batch, alternating which goes first.
/// </summary>
internal sealed class WriteBench(string repoRoot, StandIn standIn, int readings, int devices, int parallelism)
{
    private const int ReadingsPerBatch = 2000;

    public async Task RunAsync()
    {
        var settings = new Dictionary<string, string?>
        {
            ["FUNCTIONS_APP_ROOT_PATH"] = repoRoot,
            ["FUNCTIONS_CUSTOMHANDLER_PORT"] = "0",
            ["Cosmos:AccountEndpoint"] = standIn.Endpoint.AbsoluteUri,
            ["Cosmos:AuthKey"] = "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==",
            ["Cosmos:DatabaseName"] = "bench-handler",
            ["Cosmos:CreateIfNotExists"] = "true",
            ["Pipeline:WriteParallelism"] = parallelism.ToString(System.Globalization.CultureInfo.InvariantCulture),
            ["Logging:LogLevel:Default"] = "Warning",
        };
        var builder = WebApplication.CreateSlimBuilder();
        builder.Configuration.AddInMemoryCollection(settings);
        builder.AddSensorPipelineFunctions();
        await using var app = builder.Build();
        await app.StartAsync();
        var function = app.Services.GetRequiredKeyedService<ProcessorFunction>(ProcessorDefinition.Weather.Name);

        var rawOptions = app.Services.GetRequiredService<Microsoft.Extensions.Options.IOptions<CosmosOptions>>().Value;
        using var rawClient = CosmosClientFactory.Create(rawOptions, parallelism);
        var rawDatabase = (await rawClient.CreateDatabaseIfNotExistsAsync("bench-raw")).Database;
        var rawContainer = (await rawDatabase.CreateContainerIfNotExistsAsync(new ContainerProperties("readings", "/deviceId"))).Container;

        using var processor = new EnvelopeProcessor(1, "weather-processor", new StalenessPolicy(StalenessPolicy.DefaultMaxAge));
        var splitter = new Splitter(new EnvelopeBudget(100));
        var self = Process.GetCurrentProcess();
        TimeSpan rawTime = default, oursTime = default, oursCpu = default, rawCpu = default;
        long rawDocs = 0, oursReadings = 0, oursDeviceWrites = 0;
        var batches = Math.Max(1, readings / ReadingsPerBatch);
        for (var b = 0; b < batches; b++)
        {
            var now = DateTimeOffset.UtcNow;
            var ingestion = Workload.IngestionEvents(100, ReadingsPerBatch / 100, devices, $"b{b:D3}", mixedKinds: false, now);
            var envelope = splitter.Split(ingestion, now.ToUnixTimeMilliseconds()).Weather.ToArray();
            var events = new[] { new InputEvent(envelope, new SourcePosition("0", b, now.ToUnixTimeMilliseconds())) };
            var result = processor.Process(events, now.ToUnixTimeMilliseconds());
            using var request = new InvocationRequest(null, events, "0", 0);

            async Task Raw()
            {
                var (time, cpu) = await Timed(self, () => Parallel.ForEachAsync(Enumerable.Range(0, result.Pending.Count),
                    new ParallelOptions { MaxDegreeOfParallelism = parallelism },
                    async (i, token) =>
                    {
                        var document = result.Pending[i];
                        using var stream = ReadOnlyDocumentStream.Create(result.Bytes(document));
                        using var response = await rawContainer.UpsertItemStreamAsync(stream, new PartitionKey(document.DeviceId), cancellationToken: token);
                        response.EnsureSuccessStatusCode();
                    }));
                rawTime += time;
                rawCpu += cpu;
                rawDocs += result.Pending.Count;
            }

            async Task Ours()
            {
                WriteCounts counts = default;
                var (time, cpu) = await Timed(self, async () => counts = await function.WriteAsync(result, request, now, CancellationToken.None));
                oursTime += time;
                oursCpu += cpu;
                oursReadings += counts.Live + counts.Archived;
                oursDeviceWrites += result.Latest.Count;
            }

            if (b % 2 == 0)
            {
                await Raw();
                await Ours();
            }
            else
            {
                await Ours();
                await Raw();
            }
        }

        var rawRate = rawDocs / rawTime.TotalSeconds;
        var oursRate = oursReadings / oursTime.TotalSeconds;
        Console.WriteLine($"  {"raw parallel upsert loop (baseline)",-50} {rawRate,9:N0} docs/s  ({rawDocs:N0} docs in {rawTime.TotalSeconds:F1} s, {rawCpu.TotalMicroseconds / rawDocs:F1} µs client CPU/doc)");
        Console.WriteLine($"  {"handler write path: readings only",-50} {oursRate,9:N0} docs/s  ({oursReadings:N0} readings in {oursTime.TotalSeconds:F1} s, {oursCpu.TotalMicroseconds / oursReadings:F1} µs handler CPU/reading)  = {oursRate / rawRate:F2}× baseline");
        var opsRate = (oursReadings + oursDeviceWrites) / oursTime.TotalSeconds;
        Console.WriteLine($"  {"handler write path: all store writes",-50} {opsRate,9:N0} writes/s ({oursReadings:N0} readings + {oursDeviceWrites:N0} guarded device writes)  = {opsRate / rawRate:F2}× baseline");
        await app.StopAsync();
    }

    private static async Task<(TimeSpan Wall, TimeSpan Cpu)> Timed(Process self, Func<Task> action)
    {
        self.Refresh();
        var cpu = self.TotalProcessorTime;
        var wall = Stopwatch.StartNew();
        await action();
        wall.Stop();
        self.Refresh();
        return (wall.Elapsed, self.TotalProcessorTime - cpu);
    }
}
