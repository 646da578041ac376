using System.Buffers;
using System.Net;
using System.Text.Json;
using Microsoft.Azure.Cosmos;
using SensorPipeline.EndToEnd.Bench;

namespace SensorPipeline.CosmosEmulator.Bench;

/// <summary>One row of the table: an operation's rate and the store process's CPU per document, or why it could not run.</summary>
internal sealed record BenchRow(string Store, string Operation, long Documents, double Seconds, double? StoreCpuSeconds, string? Unsupported = null);

/// <summary>What one store did: its rows, its memory after the load and its answer to a read of a missing document.</summary>
internal sealed record StoreFigures(Store Store, IReadOnlyList<BenchRow> Rows, double? RssMegabytesAfterLoad, long LoadedDocuments, HttpStatusCode MissingReadStatus);

/// <summary>
/// The measurements on one store, in order: load <see cref="BenchArguments.Documents"/> reading documents by single
/// upserts (the first 1,000 warm the client and are not timed), read the store's memory, point-read random loaded
/// documents, then write new documents with bulk execution and with transactional batches. Bulk and batch are probed
/// with a small first round; a store that fails it gets an "unsupported" row naming the failure.
/// </summary>
internal sealed class StoreBench(Store store, BenchArguments settings)
{
    private const int WarmUp = 1000;
    private const int BatchSize = 100;
    private const int ReadManyPairs = 100;
    private readonly ReadingDocuments _documents = new(settings.Devices);
    private readonly long _enqueuedUnixMs = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds();

    public async Task<StoreFigures> RunAsync(CancellationToken cancellationToken)
    {
        using var client = store.CreateClient(settings.Concurrency, bulk: false);
        Database database = await client.CreateDatabaseIfNotExistsAsync("bench", cancellationToken: cancellationToken);
        var properties = new ContainerProperties("readings", "/deviceId");
        properties.IndexingPolicy.SpatialIndexes.Add(new SpatialPath { Path = "/geometry/?", SpatialTypes = { SpatialType.Point } });
        Container container = await database.CreateContainerIfNotExistsAsync(properties, cancellationToken: cancellationToken);
        var rows = new List<BenchRow>();

        await RunWorkersAsync(0, WarmUp, n => UpsertAsync(container, n, cancellationToken));
        rows.Add(await MeasureAsync("upsert, one request per document", settings.Documents - WarmUp,
            () => RunWorkersAsync(WarmUp, settings.Documents, n => UpsertAsync(container, n, cancellationToken))));
        var rss = ProcessCpu.ReadRssMegabytes(store.ProcessId);

        var random = new Random(42);
        var picks = Enumerable.Range(0, settings.Reads).Select(_ => random.NextInt64(settings.Documents)).ToArray();
        rows.Add(await MeasureAsync("point read", picks.Length,
            () => RunWorkersAsync(0, picks.Length, i => ReadAsync(container, picks[i], cancellationToken))));
        using var missing = await container.ReadItemStreamAsync("no-such-reading", new PartitionKey("no-such-device"), cancellationToken: cancellationToken);
        var readMany = $"ReadMany, {ReadManyPairs} (id, device) pairs, half absent";
        rows.Add(await ProbedAsync(readMany, token => ReadManyAsync(container, settings.ReadMany, token),
            () => MeasureAsync(readMany, (long)settings.ReadMany * ReadManyPairs, () => RunWorkersAsync(0, settings.ReadMany, i => ReadManyAsync(container, i, cancellationToken))),
            cancellationToken));

        using var bulkClient = store.CreateClient(settings.Concurrency, bulk: true);
        var bulkContainer = bulkClient.GetContainer("bench", "readings");
        var next = (long)settings.Documents;
        rows.Add(await ProbedWritesAsync("bulk upsert (AllowBulkExecution)", next, settings.Bulk,
            (from, to, token) => BulkUpsertAsync(bulkContainer, from, to, token), cancellationToken));
        next += BatchSize + settings.Bulk;
        rows.Add(await ProbedWritesAsync($"transactional batch ({BatchSize} upserts)", next, settings.Bulk,
            (from, to, token) => BatchUpsertAsync(container, from, to, token), cancellationToken));
        return new StoreFigures(store, rows, rss, settings.Documents, missing.StatusCode);
    }

    /// <summary>A first round of <see cref="BatchSize"/> documents decides whether the store supports the operation;
    /// if it does, the measured round writes <paramref name="count"/> more.</summary>
    private Task<BenchRow> ProbedWritesAsync(string operation, long from, long count, Func<long, long, CancellationToken, Task> write, CancellationToken cancellationToken) =>
        ProbedAsync(operation, token => write(from, from + BatchSize, token),
            () => MeasureAsync(operation, count, () => write(from + BatchSize, from + BatchSize + count, cancellationToken)), cancellationToken);

    /// <summary>One unmeasured <paramref name="probe"/> decides whether the store supports the operation (the former
    /// npm stand-in fails some inside the SDK); if it does, <paramref name="measure"/> gives the row.</summary>
    private async Task<BenchRow> ProbedAsync(string operation, Func<CancellationToken, Task> probe, Func<Task<BenchRow>> measure, CancellationToken cancellationToken)
    {
        using (var probeTimeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken))
        {
            probeTimeout.CancelAfter(TimeSpan.FromSeconds(60));
            try
            {
                await probe(probeTimeout.Token);
            }
            catch (Exception e) when (!cancellationToken.IsCancellationRequested)
            {
                // Whatever the store's failure looks like to the SDK (a status, a protocol error, no answer in a
                // minute), the operation is unsupported there: the row says how it failed.
                var reason = e switch
                {
                    CosmosException cosmos => $"{(int)cosmos.StatusCode} {cosmos.StatusCode}",
                    StoreAnswerException answer => answer.Status,
                    OperationCanceledException => "no answer within 60 s",
                    _ => e.Message.Split('\n')[0],
                };
                Console.Error.WriteLine($"[bench] {store.Name}: {operation}: unsupported ({e.GetType().Name}: {e.Message.Split('\n')[0]})");
                return new BenchRow(store.Name, operation, 0, 0, null, reason);
            }
        }

        return await measure();
    }

    private async Task<BenchRow> MeasureAsync(string operation, long documents, Func<Task> run)
    {
        var cpuBefore = ProcessCpu.ReadSeconds(store.ProcessId);
        var clock = Stopwatch.StartNew();
        await run();
        var seconds = clock.Elapsed.TotalSeconds;
        var cpu = ProcessCpu.ReadSeconds(store.ProcessId) - cpuBefore;
        var row = new BenchRow(store.Name, operation, documents, seconds, cpu);
        Console.Error.WriteLine($"[bench] {store.Name}: {operation}: {documents:N0} documents in {seconds:F1} s, store CPU {cpu:F1} s");
        return row;
    }

    /// <summary><see cref="BenchArguments.Concurrency"/> workers take the next index until <paramref name="to"/>.</summary>
    private async Task RunWorkersAsync(long from, long to, Func<long, Task> operation)
    {
        var next = from - 1;
        var workers = Enumerable.Range(0, settings.Concurrency).Select(async _ =>
        {
            for (var n = Interlocked.Increment(ref next); n < to; n = Interlocked.Increment(ref next))
            {
                await operation(n);
            }
        });
        await Task.WhenAll(workers);
    }

    private async Task UpsertAsync(Container container, long n, CancellationToken cancellationToken)
    {
        var (deviceId, stream) = Document(n);
        using (stream)
        {
            using var response = await container.UpsertItemStreamAsync(stream, new PartitionKey(deviceId), cancellationToken: cancellationToken);
            StoreAnswerException.ThrowUnlessSuccess(response, "upsert");
        }
    }

    private async Task ReadAsync(Container container, long n, CancellationToken cancellationToken)
    {
        var (deviceId, id) = _documents.Key(n, _enqueuedUnixMs);
        using var response = await container.ReadItemStreamAsync(id, new PartitionKey(deviceId), cancellationToken: cancellationToken);
        StoreAnswerException.ThrowUnlessSuccess(response, "point read");
    }

    /// <summary>One ReadMany as the handler's live/archive check sends it: a batch's (id, device) pairs across devices,
    /// half of them loaded documents and half ids never written (most stale readings have no live twin). The ids of
    /// request <paramref name="n"/> are drawn from a generator seeded with n, so every store gets the same requests.</summary>
    private async Task ReadManyAsync(Container container, long n, CancellationToken cancellationToken)
    {
        var random = new Random((int)n);
        var items = new List<(string, PartitionKey)>(ReadManyPairs);
        for (var i = 0; i < ReadManyPairs; i++)
        {
            var (deviceId, id) = _documents.Key(random.NextInt64(settings.Documents), _enqueuedUnixMs);
            items.Add((i % 2 == 0 ? id : id + "-absent", new PartitionKey(deviceId)));
        }

        using var response = await container.ReadManyItemsStreamAsync(items, cancellationToken: cancellationToken);
        StoreAnswerException.ThrowUnlessSuccess(response, "ReadMany");
    }

    /// <summary>Bulk: every operation is its own task and the SDK groups them into batch requests per partition key
    /// range; waves of 5,000 operations bound the bench's memory.</summary>
    private async Task BulkUpsertAsync(Container container, long from, long to, CancellationToken cancellationToken)
    {
        const int Wave = 5000;
        for (var start = from; start < to; start += Wave)
        {
            var tasks = new List<Task>(Wave);
            for (var n = start; n < Math.Min(to, start + Wave); n++)
            {
                tasks.Add(UpsertAsync(container, n, cancellationToken));
            }

            await Task.WhenAll(tasks);
        }
    }

    /// <summary>Transactional batches of <see cref="BatchSize"/> upserts, each within one device's partition, with
    /// <see cref="BenchArguments.Concurrency"/> batches in flight.</summary>
    private async Task BatchUpsertAsync(Container container, long from, long to, CancellationToken cancellationToken)
    {
        var byDevice = new Dictionary<string, List<long>>();
        for (var n = from; n < to; n++)
        {
            var deviceId = _documents.Key(n, _enqueuedUnixMs).DeviceId;
            if (!byDevice.TryGetValue(deviceId, out var list))
            {
                byDevice[deviceId] = list = [];
            }

            list.Add(n);
        }

        var batches = byDevice.SelectMany(d => d.Value.Chunk(BatchSize).Select(chunk => (DeviceId: d.Key, Documents: chunk)));
        await Parallel.ForEachAsync(batches, new ParallelOptions { MaxDegreeOfParallelism = settings.Concurrency, CancellationToken = cancellationToken },
            async (batch, token) =>
            {
                var transaction = container.CreateTransactionalBatch(new PartitionKey(batch.DeviceId));
                var streams = batch.Documents.Select(n => Document(n).Stream).ToArray();
                foreach (var stream in streams)
                {
                    transaction.UpsertItemStream(stream);
                }

                using var response = await transaction.ExecuteAsync(token);
                foreach (var stream in streams)
                {
                    await stream.DisposeAsync();
                }

                if (!response.IsSuccessStatusCode)
                {
                    throw new StoreAnswerException(response.StatusCode, "a transactional batch", response.ErrorMessage);
                }
            });
    }

    /// <summary>Document <paramref name="n"/> as a stream of its own bytes (bulk and batch hold several at once).</summary>
    private (string DeviceId, MemoryStream Stream) Document(long n)
    {
        var buffer = new ArrayBufferWriter<byte>(512);
        using var writer = new Utf8JsonWriter(buffer);
        var (deviceId, bytes) = _documents.Write(buffer, writer, n, _enqueuedUnixMs);
        return (deviceId, new MemoryStream(bytes.ToArray(), writable: false));
    }
}

/// <summary>A store answered an operation with a failure status.</summary>
internal sealed class StoreAnswerException(HttpStatusCode status, string operation, string? error)
    : Exception($"{(int)status} {status} to {operation}: {error}")
{
    /// <summary>The status alone, e.g. <c>500 InternalServerError</c>.</summary>
    public string Status { get; } = $"{(int)status} {status}";

    public static void ThrowUnlessSuccess(ResponseMessage response, string operation)
    {
        if (!response.IsSuccessStatusCode)
        {
            throw new StoreAnswerException(response.StatusCode, operation, response.ErrorMessage);
        }
    }
}
