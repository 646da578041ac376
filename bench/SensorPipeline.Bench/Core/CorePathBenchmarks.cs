using BenchmarkDotNet.Attributes;

namespace SensorPipeline.Core.Bench;

/// <summary>
/// The two paths over the same deterministic ingestion events (<see cref="Workload"/>): each invocation runs
/// <see cref="EventsPerInvoke"/> events, so BenchmarkDotNet's time and allocation per operation are per reading.
/// Public and unsealed: BenchmarkDotNet's in-process toolchain derives from it.
/// </summary>
public class CorePathBenchmarks : IDisposable
{
    private const int EventsPerInvoke = 20;
    private const int ReadingsPerInvoke = EventsPerInvoke * Workload.ReadingsPerEvent;

    private byte[][] _events = [];
    private long _now;
    private int _next;
    private OursPath? _ours;
    private NaivePath? _naive;

    [GlobalSetup]
    public void Setup()
    {
        _events = Workload.Events(2000, seed: 42);
        _now = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds();
        _ours = new OursPath();
        _naive = new NaivePath();
    }

    [Benchmark(Baseline = true, OperationsPerInvoke = ReadingsPerInvoke, Description = "naive: Google.Protobuf objects + reflection JsonSerializer")]
    public int Naive() => Run(_naive!);

    [Benchmark(OperationsPerInvoke = ReadingsPerInvoke, Description = "ours: span decoder + Utf8JsonWriter, pooled buffer")]
    public int Ours() => Run(_ours!);

    [GlobalCleanup]
    public void Dispose()
    {
        _ours?.Dispose();
        _ours = null;
        GC.SuppressFinalize(this);
    }

    private int Run(IPath path)
    {
        var readings = 0;
        for (var k = 0; k < EventsPerInvoke; k++)
        {
            readings += path.Run(_events[_next++ % _events.Length], _now - 1000, _now);
        }

        return readings;
    }
}
