namespace SensorPipeline.Toolkit;

/// <summary>CPU seconds each named process used between <see cref="Start"/> and <see cref="Stop"/>, and the whole
/// machine's under <see cref="Machine"/>.</summary>
public sealed class CpuMeter
{
    /// <summary>The key of the whole machine's busy seconds in <see cref="Stop"/>'s answer.</summary>
    public const string Machine = "machine (all processes)";

    private readonly Dictionary<string, (int Pid, double? Start)> _start;
    private readonly double _machineStart;

    private CpuMeter(Dictionary<string, (int Pid, double? Start)> start)
    {
        _start = start;
        _machineStart = ProcessCpu.ReadMachineBusySeconds();
    }

    public static CpuMeter Start(IReadOnlyDictionary<string, int> processes)
    {
        ArgumentNullException.ThrowIfNull(processes);
        return new(processes.ToDictionary(p => p.Key, p => (p.Value, ProcessCpu.ReadSeconds(p.Value))));
    }

    /// <summary>
    /// Seconds per process (null when the process was gone at either end: it restarted or exited), and under
    /// <see cref="Machine"/> the whole machine's, so work of other programs sharing the cores shows.
    /// </summary>
    public Dictionary<string, double?> Stop()
    {
        var seconds = _start.ToDictionary(p => p.Key, p => ProcessCpu.ReadSeconds(p.Value.Pid) is { } end && p.Value.Start is { } start ? end - start : (double?)null);
        seconds[Machine] = ProcessCpu.ReadMachineBusySeconds() - _machineStart;
        return seconds;
    }
}
