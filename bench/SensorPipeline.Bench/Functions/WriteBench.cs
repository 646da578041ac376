using Microsoft.Azure.Cosmos;
using SensorPipeline.Core.Policies;
using SensorPipeline.Core.Processing;
using SensorPipeline.Core.Readings;
using SensorPipeline.Clients;
using SensorPipeline.Core.Splitting;
using SensorPipeline.Functions.Extensions;
using SensorPipeline.Functions.Processing;
using SensorPipeline.Functions.Invocation;
using SensorPipeline.Functions.Options;
using SensorPipeline.Functions.Storage;

namespace SensorPipeline.Functions.Bench;

/// <summary>
/// The processor's Cosmos write path (<c>BatchWriter.WriteAsync</c>: readings, the live/archive check, the device states
/// handed to the pending states (written later, outside the invocation), dead letters), wired by the handler's own DI, against the Cosmos DB emulator, in three settings of
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

            var contenders = Contenders(raw, rawBulk, handlers, apps);
            using var batches = new Batches(devices, invocationSize);
            await CompareAsync(contenders, batches);
            await PrintLatenciesAsync(handlers, apps);
        }
        finally
        {
            foreach (var app in apps)
            {
                await app.StopAsync(); // a graceful stop writes the pending device states; disposing alone cancels the flusher mid-wait
                await app.DisposeAsync();
            }
        }
    }

    private List<(Tally Tally, Func<ProcessResult, InvocationRequest, DateTimeOffset, Task> Write)> Contenders(Container raw, Container rawBulk,
        (string Name, int BulkMinimum)[] handlers, List<WebApplication> apps)
    {
        var contenders = new List<(Tally Tally, Func<ProcessResult, InvocationRequest, DateTimeOffset, Task> Write)>
        {
            (new Tally("raw: point upsert per document"), (r, _, _) => RawPointAsync(raw, r)),
            (new Tally("raw: SDK bulk (AllowBulkExecution)"), (r, _, _) => RawBulkAsync(rawBulk, r)),
            (new Tally("raw: TransactionalBatch per device"), (r, _, _) => RawTransactionalAsync(raw, r)),
        };
        for (var h = 0; h < handlers.Length; h++)
        {
            var function = Weather(apps[h]);
            contenders.Add((new Tally("handler: " + handlers[h].Name, deviceWrites: true), (r, q, now) => function.WriteAsync(r, now, CancellationToken.None)));
        }

        return contenders;
    }

    private async Task CompareAsync(List<(Tally Tally, Func<ProcessResult, InvocationRequest, DateTimeOffset, Task> Write)> contenders, Batches batches)
    {
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
    }

    private async Task PrintLatenciesAsync((string Name, int BulkMinimum)[] handlers, List<WebApplication> apps)
    {
        Console.WriteLine("  Wall time of one invocation's write path alone (median of 7), by readings per invocation:");
        Console.WriteLine($"    {"handler",-50}" + string.Concat(LatencySizes.Select(s => $"{s,10:N0}")));
        for (var h = 0; h < handlers.Length; h++)
        {
            var function = Weather(apps[h]);
            var cells = new List<string>();
            foreach (var size in LatencySizes)
            {
                cells.Add($"{await MedianWriteMsAsync(function, size),8:F0} ms");
            }

            Console.WriteLine($"    {handlers[h].Name,-50}" + string.Concat(cells));
        }
    }

    private async Task<double> MedianWriteMsAsync(BatchWriter function, int size)
    {
        using var sized = new Batches(Math.Min(devices, size), size);
        var times = new List<double>();
        for (var i = 0; i < 7; i++)
        {
            var invocation = sized.Next(1)[0];
            var wall = Stopwatch.StartNew();
            await function.WriteAsync(invocation.Result, invocation.Now, CancellationToken.None);
            times.Add(wall.Elapsed.TotalMilliseconds);
        }

        times.Sort();
        return times[times.Count / 2];
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

    private Task<WebApplication> StartHandlerAsync(int bulkMinimum) =>
        BenchHandler.StartAsync(repoRoot, store, parallelism, bulkMinimum, "bench-bulk" + bulkMinimum.ToString(System.Globalization.CultureInfo.InvariantCulture));

    private static BatchWriter Weather(WebApplication app) => BenchHandler.Weather(app);
}
