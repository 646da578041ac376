namespace SensorPipeline.EndToEnd.Bench;

/// <summary>CPU seconds each named process used between <see cref="Start"/> and <see cref="Stop"/>.</summary>
internal sealed class CpuMeter
{
    private readonly Dictionary<string, (int Pid, double? Start)> _start;
    private readonly double _machineStart;

    private CpuMeter(Dictionary<string, (int Pid, double? Start)> start)
    {
        _start = start;
        _machineStart = ProcessCpu.ReadMachineBusySeconds();
    }

    public static CpuMeter Start(IReadOnlyDictionary<string, int> processes) =>
        new(processes.ToDictionary(p => p.Key, p => (p.Value, ProcessCpu.ReadSeconds(p.Value))));

    /// <summary>
    /// Seconds per process (null when the process was gone at either end: it restarted or exited), and under
    /// <see cref="Processes.Machine"/> the whole machine's, so work of other programs sharing the cores shows.
    /// </summary>
    public Dictionary<string, double?> Stop()
    {
        var seconds = _start.ToDictionary(p => p.Key, p => ProcessCpu.ReadSeconds(p.Value.Pid) is { } end && p.Value.Start is { } start ? end - start : (double?)null);
        seconds[Processes.Machine] = ProcessCpu.ReadMachineBusySeconds() - _machineStart;
        return seconds;
    }
}
