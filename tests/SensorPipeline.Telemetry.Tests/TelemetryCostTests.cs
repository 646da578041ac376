using System.Globalization;
using System.Net.Http.Json;
using System.Text.Json;
using Microsoft.ApplicationInsights;
using SensorPipeline.Core.Readings;
using SensorPipeline.Core.Splitting;
using SensorPipeline.Core.Telemetry;
using SensorPipeline.Functions.Telemetry;
using Xunit.Abstractions;

namespace SensorPipeline.Telemetry.Tests;

/// <summary>
/// The telemetry cost figure. The handler's real PipelineMetrics on the real SDK reports a simulated local run (three
/// functions × four partitions, as eventhubs.emulator.json) to the local endpoint, which counts the bytes. Each
/// aggregation period is cut with Flush, so an hour of 60 s periods takes no wall time. Pre-aggregation means the
/// volume follows series × periods, not events: ten times the readings must not mean ten times the bytes.
/// Prints the figures and the extrapolation to Azure ("Processing 100,000 events per second on Azure
/// Functions" paid for 450 MB/h of per-event telemetry).
/// </summary>
public sealed class TelemetryCostTests(ITestOutputHelper output)
{
    private const int Periods = 5;
    private const int Partitions = 4;
    private static readonly string[] Functions = ["Splitter", "WeatherProcessor", "SeismicProcessor"];

    [Fact]
    public async Task PreAggregation_TenTimesTheReadings_AboutTheSameBytes()
    {
        var low = await MeasureAsync(readingsPerPartitionPerPeriod: 500);
        var high = await MeasureAsync(readingsPerPartitionPerPeriod: 5_000);
        var coarse = await MeasureAsync(readingsPerPartitionPerPeriod: 5_000, histogramBucketsPerDoubling: 2);

        Print("500 readings per partition per period", low);
        Print("5,000 readings per partition per period", high);
        Print("5,000 readings per partition per period, Telemetry__HistogramBucketsPerDoubling=2", coarse);
        Assert.True(coarse.ItemsPerPeriod < high.ItemsPerPeriod * 0.7, "a coarser histogram must send fewer bucket series");

        // Only freshness and readings received carry the Partition dimension (one series per partition is the costliest
        // kind at 100 partitions a hub); the device-to-store histogram is coarser than the end-to-end one.
        Assert.Equal([MetricNames.FreshnessMs, MetricNames.ReadingsReceived], high.PerMetric.Where(m => m.Value.PerPartition > 0).Select(m => m.Key).Order());
        Assert.InRange(high.PerMetric[MetricNames.DeviceToStoreBucket].Items, 1, high.PerMetric[MetricNames.EndToEndBucket].Items / 2);
        // More readings populate a few more latency buckets in the tails; nothing else grows.
        Assert.InRange(high.UncompressedPerPeriod / low.UncompressedPerPeriod, 0.8, 1.5);
        Assert.InRange(high.ItemsPerPeriod / low.ItemsPerPeriod, 0.8, 1.5);
    }

    private static async Task<Measurement> MeasureAsync(int readingsPerPartitionPerPeriod, int histogramBucketsPerDoubling = 8)
    {
        await using var server = await TelemetryServer.StartAsync();
        using var configuration = TelemetryExtensions.CreateConfiguration(new TelemetryOptions { ConnectionString = server.ConnectionString });
        var client = new TelemetryClient(configuration);
        var clock = new FixedClock(DateTimeOffset.UtcNow);
        var metrics = new PipelineMetrics(client, clock, histogramBucketsPerDoubling);
        var random = new Random(8);
        for (var period = 0; period < Periods; period++)
        {
            SimulatePeriod(metrics, clock, random, readingsPerPartitionPerPeriod);

            // One aggregation period ends here (in Azure: every 60 s): every active series sends one aggregate.
            client.Flush();
        }

        var summary = await server.WaitForAsync(s => s.Ingestion.Requests >= Periods);
        var points = (await server.Http.GetFromJsonAsync<JsonElement>(server.At("telemetry/metrics"))).GetProperty("points").EnumerateArray().ToList();
        var perPartition = points.Count(p => p.GetProperty("dimensions").TryGetProperty("Partition", out _));
        var perMetric = points.GroupBy(p => p.GetProperty("name").GetString()!).ToDictionary(
            g => g.Key,
            g => ((double)g.Count() / Periods, (double)g.Count(p => p.GetProperty("dimensions").TryGetProperty("Partition", out _)) / Periods));
        return new Measurement(
            readingsPerPartitionPerPeriod * Partitions * Functions.Length,
            (double)summary.Ingestion.MetricItems / Periods,
            (double)perPartition / Periods,
            (double)(points.Count - perPartition) / Periods,
            (double)summary.Ingestion.BytesCompressed / Periods,
            (double)summary.Ingestion.BytesUncompressed / Periods,
            perMetric);
    }

    /// <summary>What the handler reports in one period: per partition a batch a second, latencies log-normal around 1 s.</summary>
    private static void SimulatePeriod(PipelineMetrics metrics, FixedClock clock, Random random, int readings)
    {
        var now = clock.GetUtcNow();
        foreach (var function in Functions)
        {
            for (var partition = 0; partition < Partitions; partition++)
            {
                var id = partition.ToString(CultureInfo.InvariantCulture);
                const int batches = 60;
                for (var b = 0; b < batches; b++)
                {
                    var perBatch = readings / batches;
                    InputEvent[] events = [new(ReadOnlyMemory<byte>.Empty, new SourcePosition(id, b, now.AddMilliseconds(-LogNormal(random, 200)).ToUnixTimeMilliseconds()))];
                    metrics.BatchReceived(function, id, events, perBatch, now);
                    if (function != "Splitter")
                    {
                        for (var r = 0; r < perBatch; r++)
                        {
                            var enqueued = now.ToUnixTimeMilliseconds() - (long)LogNormal(random, 1_000);
                            metrics.ReadingWritten(function, id, enqueued, enqueued - (long)LogNormal(random, 300));
                            metrics.CosmosCall("readings", "upsert", TimeSpan.FromMilliseconds(LogNormal(random, 6)), 6.2, 200);
                        }

                        metrics.CosmosCall("devices", "patch", TimeSpan.FromMilliseconds(LogNormal(random, 6)), 10.5, 200);
                        metrics.BatchStored(function, id, perBatch, staleArchived: b % 20 == 0 ? 1 : 0);
                    }

                    metrics.InvocationCompleted(function, TimeSpan.FromMilliseconds(LogNormal(random, 40)));
                }
            }
        }

        metrics.CosmosRetry("readings", 429);
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
            $"{label}: {m.ReadingsPerPeriod:N0} readings/period -> {m.ItemsPerPeriod:N0} metric items/period ({m.PerPartitionItems:N0} with a Partition dimension, {m.PerProcessItems:N0} without), {m.CompressedPerPeriod:N0} B gzip / {m.UncompressedPerPeriod:N0} B JSON per period, {m.UncompressedPerPeriod / m.ItemsPerPeriod:N0} B JSON per item"));
        output.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"  devhost (2 s periods): {m.UncompressedPerPeriod * 1800 / 1e6:N1} MB/h JSON, {m.CompressedPerPeriod * 1800 / 1e6:N1} MB/h on the wire"));
        output.WriteLine("  items per period by metric: " + string.Join(", ", m.PerMetric.OrderByDescending(p => p.Value.Items)
            .Select(p => string.Create(CultureInfo.InvariantCulture, $"{p.Key} {p.Value.Items:N0}"))));
        var bytesPerItem = m.UncompressedPerPeriod / m.ItemsPerPeriod;
        foreach (var (partitions, instances) in new[] { (32, 12), (32, 32), (32, 96), (100, 94) })
        {
            // Azure: 60 s periods, 3 hubs of `partitions` each. A per-partition series is sent once per partition (by the
            // instance that owns it at the time); every other series once per instance. Flex Consumption scales each
            // function separately, so an instance hosts one function: per instance, a third of what this one process
            // (all three functions) sends without a Partition dimension. Assumes an instance's non-empty latency buckets
            // per minute are as measured here (log-normal latencies, σ = 1; more readings per instance fill a few more
            // tail buckets, see the 10x case).
            var items = m.PerPartitionItems / Partitions * partitions + (m.PerProcessItems / Functions.Length * instances);
            var mbPerHour = items * bytesPerItem * 60 / 1e6;
            output.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"  Azure, {partitions} partitions/hub, {instances} instances: {items * 60:N0} items/h, {mbPerHour:N1} MB/h JSON = {mbPerHour / 450:P1} of the 450 MB/h of the published 100,000 events/s run"));
        }
    }

    private sealed record Measurement(double ReadingsPerPeriod, double ItemsPerPeriod, double PerPartitionItems, double PerProcessItems, double CompressedPerPeriod, double UncompressedPerPeriod,
        Dictionary<string, (double Items, double PerPartition)> PerMetric);
}
