using SensorPipeline.Core.Policies;
using SensorPipeline.Core.Processing;
using SensorPipeline.Core.Readings;
using SensorPipeline.Core.Splitting;
using SensorPipeline.Functions.Invocation;

namespace SensorPipeline.Functions.Bench;

/// <summary>
/// Handler CPU time per reading without the store or the hubs: the request parse and the core's work,
/// single-threaded, on full batches (100 ingestion events of 20 readings).
/// </summary>
internal static class CpuBench
{
    public static void Run(int iterations)
    {
        var now = DateTimeOffset.UtcNow;
        var nowMs = now.ToUnixTimeMilliseconds();
        var mixed = Workload.IngestionEvents(100, 20, 500, "cpu", mixedKinds: true, now);
        var splitterBody = Workload.HostRequest(mixed);
        var splitter = new Splitter();
        // The envelopes grouped for 4 partitions per hub, as devhost serves them; sending them (the Event Hubs client) is
        // I/O this bench leaves out: `./pipeline bench affinity` measures the splitter with its sends.
        Measure("Splitter: parse + split per partition (4 per hub)", iterations, 2000, splitterBody.Length, () =>
        {
            using var request = InvocationRequestReader.Parse(splitterBody, "events");
            splitter.Split(request.Events, nowMs, weatherPartitions: 4, seismicPartitions: 4);
        });

        var weather = Workload.IngestionEvents(100, 20, 500, "cpu", mixedKinds: false, now);
        var envelopes = splitter.Split(weather, nowMs).Weather.Select((e, i) => new InputEvent(e.ToArray(), new SourcePosition("0", i, nowMs))).ToArray();
        var processorBody = Workload.HostRequest(envelopes);
        using var processor = new EnvelopeProcessor(SensorPipeline.Protos.SensorKind.Weather, "weather-processor", new StalenessPolicy(StalenessPolicy.DefaultMaxAge));
        Measure("Processor: parse + decode + GeoJSON + coalesce", iterations, 2000, processorBody.Length, () =>
        {
            using var request = InvocationRequestReader.Parse(processorBody, "events");
            processor.Process(request.Events, nowMs);
        });
    }

    private static void Measure(string name, int iterations, int readingsPerIteration, int requestBytes, Action iteration)
    {
        for (var i = 0; i < Math.Max(5, iterations / 5); i++)
        {
            iteration(); // warm-up: tiering and pools
        }

        var self = Process.GetCurrentProcess();
        var cpuBefore = self.TotalProcessorTime;
        var allocatedBefore = GC.GetAllocatedBytesForCurrentThread();
        var wall = Stopwatch.StartNew();
        for (var i = 0; i < iterations; i++)
        {
            iteration();
        }

        wall.Stop();
        self.Refresh();
        var cpu = self.TotalProcessorTime - cpuBefore;
        var readings = (double)iterations * readingsPerIteration;
        var allocated = GC.GetAllocatedBytesForCurrentThread() - allocatedBefore;
        Console.WriteLine($"  {name,-50} {cpu.TotalMicroseconds / readings,7:F2} µs CPU/reading  {readings / wall.Elapsed.TotalSeconds,12:N0} readings/s on one thread  {allocated / readings,7:F1} B allocated/reading  (request {requestBytes / 1024} KiB, {iterations} × {readingsPerIteration} readings)");
    }
}
