using System.Diagnostics;
using SensorPipeline.Core.Bench;

// The CPU path decode → staleness → GeoJSON bytes, ours beside the naive path, measured in one run.
// `--quick` runs each cell for 1 s instead of 3 s. Figures are wall-clock on whatever machine runs it.
var quick = args.Contains("--quick");
var seconds = quick ? 1.0 : 3.0;
var events = Workload.Events(2000, seed: 42);
var now = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds();

Console.WriteLine($"SensorPipeline CPU path: decode -> validate -> staleness -> GeoJSON bytes ({Workload.ReadingsPerEvent} readings per event, {Environment.ProcessorCount} cores, .NET {Environment.Version})");
Console.WriteLine();
Console.WriteLine("| path | readings/s, 1 core | readings/s, 2 cores | bytes allocated per reading |");
Console.WriteLine("|---|---:|---:|---:|");
var results = new List<(string Name, double One, double Two, double Alloc)>();
foreach (var (name, factory) in new (string, Func<IPath>)[]
         {
             ("naive: Google.Protobuf objects + reflection JsonSerializer", () => new NaivePath()),
             ("ours: span decoder + Utf8JsonWriter, pooled buffer", () => new OursPath()),
         })
{
    var one = Measure(factory, threads: 1, seconds, events, now, out var alloc);
    var two = Measure(factory, threads: 2, seconds, events, now, out _);
    results.Add((name, one, two, alloc));
    Console.WriteLine($"| {name} | {one,12:N0} | {two,12:N0} | {alloc,8:N1} |");
}

Console.WriteLine();
Console.WriteLine($"ours / naive: {results[1].One / results[0].One:N1}x readings/s on 1 core; allocation {results[0].Alloc:N0} -> {results[1].Alloc:N1} bytes per reading.");
Console.WriteLine("Targets: >= 1,000,000 readings/s per core and <= 64 bytes allocated per reading in steady state.");

static double Measure(Func<IPath> factory, int threads, double seconds, byte[][] events, long now, out double bytesPerReading)
{
    var counts = new long[threads];
    var allocated = new long[threads];
    var start = new Barrier(threads);
    var stopwatch = new Stopwatch();
    var workers = Enumerable.Range(0, threads).Select(t => new Thread(() =>
    {
        var path = factory();
        // Warm-up: tiering and buffers reach steady state before anything is counted.
        for (var i = 0; i < 400; i++)
        {
            path.Run(events[i % events.Length], now - 1000, now);
        }

        start.SignalAndWait();
        if (t == 0)
        {
            stopwatch.Start();
        }

        var before = GC.GetAllocatedBytesForCurrentThread();
        long readings = 0;
        var deadline = Stopwatch.GetTimestamp() + (long)(seconds * Stopwatch.Frequency);
        var e = t * 97;
        while (Stopwatch.GetTimestamp() < deadline)
        {
            for (var k = 0; k < 20; k++)
            {
                readings += path.Run(events[e++ % events.Length], now - 1000, now);
            }
        }

        allocated[t] = GC.GetAllocatedBytesForCurrentThread() - before;
        counts[t] = readings;
        (path as IDisposable)?.Dispose();
    })).ToList();
    workers.ForEach(w => w.Start());
    workers.ForEach(w => w.Join());
    stopwatch.Stop();
    var total = counts.Sum();
    bytesPerReading = (double)allocated.Sum() / total;
    return total / stopwatch.Elapsed.TotalSeconds;
}
