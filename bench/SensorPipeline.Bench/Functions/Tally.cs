using SensorPipeline.Core.Processing;
using SensorPipeline.Functions.Invocation;

namespace SensorPipeline.Functions.Bench;

/// <summary>One processed invocation: what the processor's write path takes.</summary>
internal sealed record Invocation(ProcessResult Result, InvocationRequest Request, DateTimeOffset Now);

/// <summary>Wall and process CPU time of one contender, summed over rounds.</summary>
internal sealed class Tally(string name, bool deviceWrites = false)
{
    /// <summary>First-chance exceptions in the process so far.</summary>
    public static long Exceptions;

    private readonly Process _self = Process.GetCurrentProcess();
    private TimeSpan _wall;
    private TimeSpan _cpu;
    private long _readings;
    private long _deviceWrites;
    private long _exceptions;
    private readonly List<(TimeSpan Cpu, TimeSpan Wall, long Readings)> _rounds = [];

    public double ReadingsPerSecond => _readings / _wall.TotalSeconds;

    public static async Task<double> IdleCpuPerSecondAsync(TimeSpan period)
    {
        using var self = Process.GetCurrentProcess();
        var cpu = self.TotalProcessorTime;
        var wall = Stopwatch.StartNew();
        await Task.Delay(period);
        self.Refresh();
        return (self.TotalProcessorTime - cpu).TotalSeconds / wall.Elapsed.TotalSeconds;
    }

    /// <summary>CPU µs per reading, net of <paramref name="idle"/> (CPU seconds per second the process spends idle); 0: gross.</summary>
    public double CpuPerReading(double idle) => Math.Max(0, _cpu.TotalMicroseconds - (idle * _wall.TotalMicroseconds)) / _readings;

    /// <summary>CPU µs per reading of each measured round, net of <paramref name="idle"/> (0: gross), in the order run.</summary>
    public IReadOnlyList<double> RoundCpuPerReading(double idle) =>
        [.. _rounds.Select(r => Math.Max(0, r.Cpu.TotalMicroseconds - (idle * r.Wall.TotalMicroseconds)) / r.Readings)];

    public async Task MeasureAsync(IReadOnlyList<Invocation> invocations, Func<Task> action)
    {
        _self.Refresh();
        var cpu = _self.TotalProcessorTime;
        var exceptions = Interlocked.Read(ref Exceptions);
        var wall = Stopwatch.StartNew();
        await action();
        wall.Stop();
        _exceptions += Interlocked.Read(ref Exceptions) - exceptions;
        _self.Refresh();
        var readings = invocations.Sum(i => i.Result.Pending.Count);
        _rounds.Add((_self.TotalProcessorTime - cpu, wall.Elapsed, readings));
        _wall += wall.Elapsed;
        _cpu += _self.TotalProcessorTime - cpu;
        _readings += readings;
        _deviceWrites += deviceWrites ? invocations.Sum(i => i.Result.Latest.Count) : 0;
    }

    public void Print(Tally baseline, double idle)
    {
        var devices = _deviceWrites > 0 ? $" + {_deviceWrites:N0} device writes" : "";
        Console.WriteLine($"  {name,-52} {CpuPerReading(0),6:F1} µs CPU/reading gross ({CpuPerReading(0) / baseline.CpuPerReading(0):F2}×), {CpuPerReading(idle),6:F1} net  {ReadingsPerSecond,7:N0} readings/s  {_exceptions} exceptions  ({_readings:N0} readings{devices} in {_wall.TotalSeconds:F1} s)");
    }
}
