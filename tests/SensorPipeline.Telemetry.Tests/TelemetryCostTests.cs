using System.Globalization;
using Microsoft.ApplicationInsights;
using Microsoft.ApplicationInsights.DataContracts;
using SensorPipeline.Core.Readings;
using SensorPipeline.Core.Splitting;
using Xunit.Abstractions;

namespace SensorPipeline.Telemetry.Tests;

/// <summary>
/// The telemetry cost figure. Several instances of one function — each the handler's real PipelineMetrics on its own
/// real SDK pipeline, as separate handler processes are — share the partitions of a hub and report a simulated run to the
/// local <c>/v2/track</c>, which counts items and bytes. Each aggregation period is cut as the flusher cuts it, so an hour
/// of 5-minute periods takes no wall time. Pre-aggregation means the volume follows series × instances × periods, not
/// events: ten times the readings must not mean ten times the bytes. Prints the figures and the extrapolation to Azure at
/// 100,000 readings/s — the handler's items and the Functions host's own, as host.json configures it — beside the
/// 450 MB/h of per-event telemetry "Processing 100,000 events per second on Azure Functions" paid for.
/// </summary>
public sealed class TelemetryCostTests(ITestOutputHelper output)
{
    /// <summary>The ≤ 5 % goal: 5 % of the 450 MB/h of the published run.</summary>
    private const double BudgetMbPerHour = 22.5;
    private const int Periods = 3;
    private const int Partitions = 4;
    private const int InstancesPerFunction = 2;
    private static readonly TimeSpan Period = TelemetryOptions.MaxMetricFlushInterval;

    [Fact]
    public async Task Track_SeveralInstancesAtTenTimesTheReadings_SameItemsAndAzureVolumeWithinBudget()
    {
        var splitter = await MeasureAsync("Splitter", readingsPerPartitionPerPeriod: 25_000);
        var low = await MeasureAsync("WeatherProcessor", readingsPerPartitionPerPeriod: 2_500);
        var high = await MeasureAsync("WeatherProcessor", readingsPerPartitionPerPeriod: 25_000);
        var lagging = await MeasureAsync("WeatherProcessor", readingsPerPartitionPerPeriod: 25_000, lagging: true);
        var host = await MeasureHostItemsAsync();

        Print("Splitter", splitter);
        Print("WeatherProcessor, 2,500 readings per partition per period", low);
        Print("WeatherProcessor, 25,000 readings per partition per period", high);
        Print("WeatherProcessor, 25,000 readings per partition per period, every partition lagging", lagging);
        output.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"Functions host items as the WebJobs Application Insights logger shapes them, real SDK: aggregate metric {host.AggregateItemBytes:N0} B, failed-invocation request {host.RequestItemBytes:N0} B, exception {host.ExceptionItemBytes:N0} B JSON"));
        var azure = Extrapolate(splitter, high, lagging, host, partitions: 100, instances: 94);
        Extrapolate(splitter, high, lagging, host, partitions: 32, instances: 12);

        // Nothing but freshness carries a partition, and only for lagging partitions.
        Assert.Equal(0, high.PartitionItemsPerPeriod);
        Assert.Equal(Partitions, lagging.PartitionItemsPerPeriod);
        // One item per latency per instance, whatever the number of buckets it fills.
        Assert.Equal(InstancesPerFunction, high.PerMetric[MetricNames.EndToEndMs]);
        Assert.Equal(InstancesPerFunction, high.PerMetric[MetricNames.DeviceToStoreMs]);
        // More readings fill a few more latency buckets (longer Buckets pairs); the items do not grow.
        Assert.Equal(low.ItemsPerPeriod, high.ItemsPerPeriod);
        Assert.InRange(high.UncompressedPerPeriod / low.UncompressedPerPeriod, 0.9, 1.3);
        // The goal itself: a new per-partition or per-bucket series would break this before it reaches a bill.
        Assert.True(azure.SteadyMbPerHour <= BudgetMbPerHour, $"{azure.SteadyMbPerHour:N1} MB/h over the {BudgetMbPerHour} MB/h budget");
    }

    /// <summary>
    /// <see cref="InstancesPerFunction"/> instances of <paramref name="function"/> split the hub's partitions, each with its
    /// own SDK pipeline and PipelineMetrics, all posting to one local endpoint.
    /// </summary>
    private static async Task<Measurement> MeasureAsync(string function, int readingsPerPartitionPerPeriod, bool lagging = false)
    {
        await using var server = await TelemetryServer.StartAsync();
        var clock = new FixedClock(DateTimeOffset.UtcNow);
        var instances = Enumerable.Range(0, InstancesPerFunction).Select(_ => Instance.Start(server.ConnectionString, clock)).ToList();
        try
        {
            var random = new Random(8);
            for (var period = 0; period < Periods; period++)
            {
                for (var i = 0; i < instances.Count; i++)
                {
                    // Partitions are spread over the instances as the load balancer spreads them: i, i + n, i + 2n, …
                    for (var partition = i; partition < Partitions; partition += instances.Count)
                    {
                        SimulatePartition(instances[i].Metrics, function, partition, clock.Now, random, readingsPerPartitionPerPeriod, lagging);
                    }
                }

                clock.Now += Period;
                foreach (var instance in instances)
                {
                    // One aggregation period ends here, as MetricFlusher ends it every Telemetry__MetricFlushInterval.
                    instance.Metrics.Cut();
                    instance.Client.Flush();
                }
            }
        }
        finally
        {
            instances.ForEach(i => i.Dispose());
        }

        var summary = await server.WaitForAsync(s => s.Ingestion.Requests >= Periods * InstancesPerFunction);
        var points = (await server.Http.GetFromJsonAsync<JsonElement>(server.At("telemetry/metrics"))).GetProperty("points").EnumerateArray().ToList();
        static bool HasPartition(JsonElement p) =>
            p.GetProperty("dimensions").TryGetProperty(MetricNames.Dimensions.Partition, out var partition) && partition.GetString() != MetricNames.AllPartitions;
        return new Measurement(
            (double)summary.Ingestion.MetricItems / Periods,
            (double)points.Count(HasPartition) / Periods,
            (double)summary.Ingestion.BytesCompressed / Periods,
            (double)summary.Ingestion.BytesUncompressed / Periods,
            points.GroupBy(p => p.GetProperty("name").GetString()!).ToDictionary(g => g.Key, g => (double)g.Count() / Periods));
    }

    /// <summary>One partition's period: a batch a second of two events, latencies log-normal around 1 s (σ = 1).</summary>
    private static void SimulatePartition(PipelineMetrics metrics, string function, int partition, DateTimeOffset now, Random random, int readings, bool lagging)
    {
        var id = partition.ToString(CultureInfo.InvariantCulture);
        var batches = (int)Period.TotalSeconds;
        var perBatch = readings / batches;
        for (var b = 0; b < batches; b++)
        {
            var lateness = lagging ? 120_000 + LogNormal(random, 200) : LogNormal(random, 200);
            InputEvent[] events = [Event(id, 2 * b, now.AddMilliseconds(-lateness)), Event(id, (2 * b) + 1, now.AddMilliseconds(-lateness + 5))];
            metrics.BatchReceived(function, id, events, perBatch, now);
            if (function != "Splitter")
            {
                for (var r = 0; r < perBatch; r++)
                {
                    var enqueued = now.ToUnixTimeMilliseconds() - (long)LogNormal(random, 1_000);
                    metrics.ReadingWritten(function, id, enqueued, enqueued - (long)LogNormal(random, 300));
                }

                metrics.CosmosCall("readings", "upsert", TimeSpan.FromMilliseconds(LogNormal(random, 6)), 6.2 * perBatch, 200);
                metrics.CosmosCall("devices", "patch", TimeSpan.FromMilliseconds(LogNormal(random, 6)), 10.5, 200);
                metrics.BatchStored(function, id, perBatch, staleArchived: b % 20 == 0 ? 1 : 0);
            }

            metrics.InvocationCompleted(function, TimeSpan.FromMilliseconds(LogNormal(random, 40)));
        }

        metrics.CosmosRetry("readings", 429);
    }

    private static InputEvent Event(string partition, long sequence, DateTimeOffset enqueued) =>
        new(ReadOnlyMemory<byte>.Empty, new SourcePosition(partition, sequence, enqueued.ToUnixTimeMilliseconds()));

    /// <summary>
    /// The Functions host's own items, shaped as the WebJobs Application Insights logger shapes them
    /// (Azure/azure-webjobs-sdk, src/Microsoft.Azure.WebJobs.Logging.ApplicationInsights/ApplicationInsightsLogger.cs):
    /// Host.Aggregator sends one metric "{function} {key}" per aggregate value (Count, Successes, Failures, SuccessRate,
    /// MinDurationMs, MaxDurationMs, AvgDurationMs) with LogLevel and Category properties; Host.Results one request per
    /// invocation (and an exception when it failed). Serialized by the same SDK, with the same role tags, to the local
    /// endpoint, which counts the bytes.
    /// </summary>
    private static async Task<HostItems> MeasureHostItemsAsync()
    {
        async Task<double> BytesOf(Action<TelemetryClient> track, int count)
        {
            await using var server = await TelemetryServer.StartAsync();
            using (var configuration = TelemetryExtensions.CreateConfiguration(new TelemetryOptions { ConnectionString = server.ConnectionString }))
            {
                var client = new TelemetryClient(configuration);
                for (var i = 0; i < count; i++)
                {
                    track(client);
                }

                client.Flush();
            }

            var summary = await server.WaitForAsync(s => s.Ingestion.Items >= count);
            return (double)summary.Ingestion.BytesUncompressed / summary.Ingestion.Items;
        }

        var aggregate = await BytesOf(c => c.TrackMetric("WeatherProcessor AvgDurationMs", 41.25, new Dictionary<string, string>
        {
            ["LogLevel"] = "Information",
            ["Category"] = "Host.Aggregator",
        }), 7);
        var request = await BytesOf(c =>
        {
            var item = new RequestTelemetry("WeatherProcessor", DateTimeOffset.UtcNow, TimeSpan.FromMilliseconds(120), "0", success: false)
            {
                Id = "8f2d3c4b5a697887",
                Source = "sb://sensorpipeline.servicebus.windows.net/weather",
            };
            item.Context.Operation.Id = "4bf92f3577b34da6a3ce929d0e0e4736";
            item.Context.Operation.Name = "WeatherProcessor";
            item.Properties["InvocationId"] = Guid.NewGuid().ToString();
            item.Properties["HostInstanceId"] = Guid.NewGuid().ToString();
            item.Properties["ProcessId"] = "1234";
            item.Properties["TriggerReason"] = "New EventHub message detected on 'weather'.";
            item.Properties["FullName"] = "Functions.WeatherProcessor";
            item.Properties["LogLevel"] = "Error";
            item.Properties["Category"] = "Host.Results";
            item.Properties["FunctionExecutionTimeMs"] = "120.5";
            item.Properties["_MS.links"] = """[{"operation_Id":"5eca8b153632494ba00f619d6877b134","id":"d4c1279b6e7b7c47"},{"operation_Id":"ff28988d0776b44f9ca93352da126047","id":"bf4fa4855d161141"}]""";
            c.TrackRequest(item);
        }, 5);
        var exception = await BytesOf(c => c.TrackException(new ExceptionTelemetry(new InvalidOperationException("Result: Failure Exception: store unavailable (503) Stack: at the handler"))
        {
            Properties = { ["LogLevel"] = "Error", ["Category"] = "Host.Results", ["InvocationId"] = Guid.NewGuid().ToString() },
        }), 5);
        return new HostItems(aggregate, request, exception);
    }

    private static double LogNormal(Random random, double median)
    {
        // Box-Muller: σ = 1 puts 95 % of the values within a factor 7 of the median, like real end-to-end latency.
        var normal = Math.Sqrt(-2 * Math.Log(1 - random.NextDouble())) * Math.Cos(2 * Math.PI * random.NextDouble());
        return median * Math.Exp(normal);
    }

    private void Print(string label, Measurement m)
    {
        output.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"{label}: {InstancesPerFunction} instances, {Partitions} partitions, {Period.TotalMinutes:N0}-min periods -> {m.ItemsPerPeriod:N1} metric items per period ({m.PartitionItemsPerPeriod:N1} naming a partition), {m.CompressedPerPeriod:N0} B gzip / {m.UncompressedPerPeriod:N0} B JSON per period, {m.UncompressedPerPeriod / m.ItemsPerPeriod:N0} B JSON per item"));
        output.WriteLine("  items per period by metric: " + string.Join(", ", m.PerMetric.OrderByDescending(p => p.Value)
            .Select(p => string.Create(CultureInfo.InvariantCulture, $"{p.Key} {p.Value:N1}"))));
    }

    /// <summary>
    /// Azure at 100,000 readings/s: 3 hubs of <paramref name="partitions"/>; Flex Consumption scales functions separately,
    /// so an instance hosts one function; every instance is costed as the costlier of a splitter and a processor instance
    /// (measured per instance above); a lagging partition adds one FreshnessMs item per period. The host's per-invocation
    /// items are counted from host.json: invocations/h from its maxEventBatchSize, the splitter's envelopes and the
    /// default readings per event; with Host.Results and Function at Warning only failures send items; with
    /// Host.Aggregator at Warning no aggregates; perf counters off; Live Metrics is not billed; the SDK's heartbeat is
    /// counted in case the host sends it.
    /// </summary>
    private Extrapolation Extrapolate(Measurement splitter, Measurement processor, Measurement lagging, HostItems host, int partitions, int instances)
    {
        var periodsPerHour = TimeSpan.FromHours(1) / Period;
        var perInstance = Math.Max(splitter.UncompressedPerPeriod, processor.UncompressedPerPeriod) / InstancesPerFunction;
        var handler = instances * perInstance * periodsPerHour / 1e6;
        var lagItemBytes = lagging.UncompressedPerPeriod / lagging.ItemsPerPeriod;
        var allLagging = 3 * partitions * lagItemBytes * periodsPerHour / 1e6;

        // Invocations at 100,000 readings/s: devices send 50 readings an event (loadgen's default); the splitter reads
        // maxEventBatchSize events an invocation and forwards one envelope per kind per invocation (≤ 250 readings), which the
        // processors read maxEventBatchSize at a time.
        var batch = HostJson.MaxEventBatchSize;
        var splitterInvocations = 100_000.0 / (50 * batch) * 3600;
        var processorInvocations = 2 * (splitterInvocations / batch);
        var invocations = splitterInvocations + processorInvocations;
        var requestsAtInformation = invocations * host.RequestItemBytes / 1e6;
        var aggregatorAtInformation = instances * 120 * 7 * host.AggregateItemBytes / 1e6;
        var perThousandFailures = 1000 * (host.RequestItemBytes + host.ExceptionItemBytes + host.AggregateItemBytes) / 1e6;

        // The SDK's heartbeat (a metric item every 15 min by default), counted in case the host sends it.
        var heartbeat = instances * 4 * host.AggregateItemBytes / 1e6;
        var steady = handler + heartbeat;
        output.WriteLine(string.Create(CultureInfo.InvariantCulture, $"Azure, {partitions} partitions/hub, {instances} instances, {Period.TotalMinutes:N0}-min periods:"));
        output.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"  handler: {perInstance:N0} B JSON per instance per period x {instances} x {periodsPerHour:N0}/h = {handler:N2} MB/h; + {allLagging:N2} MB/h while every partition lags (one FreshnessMs item each, {lagItemBytes:N0} B)"));
        output.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"  Functions host as host.json configures it ({invocations:N0} invocations/h; Host.Results, Function and Host.Aggregator at Warning): no item per successful invocation; heartbeat {heartbeat:N2} MB/h; +{perThousandFailures:N2} MB/h per 1,000 failed invocations an hour (request + exception + failure trace)"));
        output.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"  (what host.json's levels remove: Host.Results at Information, a request per invocation, {requestsAtInformation:N0} MB/h (requests are excluded from sampling), before the Executing/Executed traces; Host.Aggregator at Information, 7 items per instance every 30 s, {aggregatorAtInformation:N1} MB/h)"));
        output.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"  total: {steady:N2} MB/h = {steady / 450:P1} of 450 MB/h in steady state; {steady + allLagging:N2} MB/h = {(steady + allLagging) / 450:P1} with every partition lagging"));
        return new Extrapolation(steady, allLagging);
    }

    private sealed record Measurement(double ItemsPerPeriod, double PartitionItemsPerPeriod, double CompressedPerPeriod, double UncompressedPerPeriod,
        Dictionary<string, double> PerMetric);

    private sealed record HostItems(double AggregateItemBytes, double RequestItemBytes, double ExceptionItemBytes);

    private sealed record Extrapolation(double SteadyMbPerHour, double AllLaggingMbPerHour);

    /// <summary>One handler instance: its own SDK pipeline (channel, role context) and metrics, as a separate process has.</summary>
    private sealed class Instance(Microsoft.ApplicationInsights.Extensibility.TelemetryConfiguration configuration, TelemetryClient client, PipelineMetrics metrics) : IDisposable
    {
        public TelemetryClient Client => client;

        public PipelineMetrics Metrics => metrics;

        public static Instance Start(string connectionString, TimeProvider clock)
        {
            var configuration = TelemetryExtensions.CreateConfiguration(new TelemetryOptions { ConnectionString = connectionString });
            var client = new TelemetryClient(configuration);
            return new Instance(configuration, client, new PipelineMetrics(client, clock));
        }

        public void Dispose() => configuration.Dispose();
    }

    /// <summary>The repository's host.json, which Azure deploys: the batch size the invocation count follows.</summary>
    private static class HostJson
    {
        public static int MaxEventBatchSize { get; } = Read();

        private static int Read()
        {
            using var document = JsonDocument.Parse(File.ReadAllText(Path.Combine(RepoLayout.Current.Root, "host.json")));
            return document.RootElement.GetProperty("extensions").GetProperty("eventHubs").GetProperty("maxEventBatchSize").GetInt32();
        }
    }
}
