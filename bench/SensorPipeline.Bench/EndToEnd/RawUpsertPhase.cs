using System.Buffers;
using System.Runtime.InteropServices;
using System.Text.Json;
using Microsoft.Azure.Cosmos;

namespace SensorPipeline.EndToEnd.Bench;

/// <summary>
/// The stand-in's ceiling: a plain loop of <paramref name="parallelism"/> concurrent <c>UpsertItemStreamAsync</c> calls of
/// reading documents into one container, with the client settings the handler uses (Gateway mode, no content on write).
/// </summary>
internal sealed class RawUpsertPhase(LocalPipeline pipeline, int parallelism, TimeSpan duration, long maxDocuments)
{
    public async Task<PhaseFigures> RunAsync(CancellationToken cancellationToken)
    {
        var options = new CosmosClientOptions
        {
            ApplicationName = "sensorpipeline-e2e-bench",
            GatewayModeMaxConnectionLimit = Math.Max(50, parallelism * 2),
            EnableContentResponseOnWrite = false,
            MaxRetryAttemptsOnRateLimitedRequests = 0,
        };
        using var client = pipeline.CreateCosmosClient(options);
        var database = (await client.CreateDatabaseIfNotExistsAsync("bench-raw", cancellationToken: cancellationToken)).Database;
        var container = (await database.CreateContainerIfNotExistsAsync(new ContainerProperties("readings", "/deviceId"), cancellationToken: cancellationToken)).Container;
        var documents = new ReadingDocuments(200);
        var enqueued = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds();

        // Warm-up outside the measurement: connections opened, the client's caches filled, the JIT done.
        var next = -1L;
        await RunWorkersAsync(container, documents, enqueued, () => Interlocked.Increment(ref next) is var n && n < 2000 ? n : -1, cancellationToken);

        var cpu = CpuMeter.Start(Processes.Of(pipeline, handlerPid: null));
        var self = Process.GetCurrentProcess();
        var selfCpu = self.TotalProcessorTime;
        var clock = Stopwatch.StartNew();
        var written = await RunWorkersAsync(container, documents, enqueued,
            () => clock.Elapsed < duration && Interlocked.Increment(ref next) is var n && n < maxDocuments ? n : -1, cancellationToken);
        var seconds = clock.Elapsed.TotalSeconds;
        var cpuSeconds = cpu.Stop();
        self.Refresh();
        cpuSeconds[Processes.BenchClient] = (self.TotalProcessorTime - selfCpu).TotalSeconds;
        return new PhaseFigures("raw upsert loop", 0, written, seconds, seconds, cpuSeconds, null,
            $"{parallelism} concurrent upserts, {written:N0} documents in {seconds:F1} s");
    }

    private async Task<long> RunWorkersAsync(Container container, ReadingDocuments documents, long enqueued, Func<long> take, CancellationToken cancellationToken)
    {
        var written = 0L;
        var workers = Enumerable.Range(0, parallelism).Select(async _ =>
        {
            var buffer = new ArrayBufferWriter<byte>(1024);
            await using var writer = new Utf8JsonWriter(buffer);
            for (var n = take(); n >= 0; n = take())
            {
                var (deviceId, bytes) = documents.Write(buffer, writer, n, enqueued);
                // The SDK sends the stream's bytes as they are: no copy of the pooled buffer.
                using var stream = MemoryMarshal.TryGetArray(bytes, out var segment) && segment.Array is { } array
                    ? new MemoryStream(array, segment.Offset, segment.Count, writable: false)
                    : new MemoryStream(bytes.ToArray(), writable: false);
                using var response = await container.UpsertItemStreamAsync(stream, new PartitionKey(deviceId), cancellationToken: cancellationToken);
                response.EnsureSuccessStatusCode();
                Interlocked.Increment(ref written);
            }
        });
        await Task.WhenAll(workers);
        return written;
    }
}
