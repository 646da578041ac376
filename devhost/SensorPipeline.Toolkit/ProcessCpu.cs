using System.Diagnostics;
using System.Globalization;

namespace SensorPipeline.Toolkit;

/// <summary>CPU time (user + system) and resident memory of another process, from <c>/proc/&lt;pid&gt;/stat</c> and
/// <c>/proc/&lt;pid&gt;/status</c> (Linux): what the benches report per process.</summary>
public static class ProcessCpu
{
    private static readonly Lazy<int> ClockTicks = new(ReadClockTicks);

    /// <summary>Clock ticks per second (<c>getconf CLK_TCK</c>; 100 on every Linux this runs on).</summary>
    public static int TicksPerSecond => ClockTicks.Value;

    /// <summary>The process's CPU seconds so far, or null when it is gone.</summary>
    public static double? ReadSeconds(int pid) => ReadStat(pid) is { } stat ? ParseTicks(stat) / (double)TicksPerSecond : null;

    /// <summary>The 1-minute load average (<c>/proc/loadavg</c>): how busy the shared cores were while a bench ran.</summary>
    public static double ReadLoadAverage() =>
        double.Parse(File.ReadAllText("/proc/loadavg").Split(' ')[0], CultureInfo.InvariantCulture);

    /// <summary>Seconds since the process started (<c>/proc/uptime</c> − field 22 <c>starttime</c> of its stat line),
    /// or null when it is gone: a start time taken by the kernel, not by whoever launched it.</summary>
    public static double? ReadAgeSeconds(int pid)
    {
        if (ReadStat(pid) is not { } stat)
        {
            return null;
        }

        var uptime = double.Parse(File.ReadAllText("/proc/uptime").Split(' ')[0], CultureInfo.InvariantCulture);
        return uptime - ParseStartTicks(stat) / (double)TicksPerSecond;
    }

    /// <summary>Field 22 (<c>starttime</c>, clock ticks after boot) of a <c>/proc/&lt;pid&gt;/stat</c> line.</summary>
    public static long ParseStartTicks(string stat)
    {
        var fields = FieldsAfterName(stat);
        // After ") " come field 3 onwards: starttime is field 22, so index 19 here.
        return fields.Length >= 20
            ? long.Parse(fields[19], NumberStyles.None, CultureInfo.InvariantCulture)
            : throw new FormatException($"not a /proc/<pid>/stat line: {fields.Length + 2} fields, need at least 22");
    }

    /// <summary>CPU seconds every process on the machine has used since boot (the busy columns of <c>/proc/stat</c>).</summary>
    public static double ReadMachineBusySeconds() => ParseMachineBusyTicks(File.ReadLines("/proc/stat").First()) / (double)TicksPerSecond;

    /// <summary>
    /// user + nice + system + irq + softirq + steal of the <c>/proc/stat</c> "cpu" line, in clock ticks (idle and iowait
    /// are not busy; guest time is already inside user).
    /// </summary>
    public static long ParseMachineBusyTicks(string cpuLine)
    {
        ArgumentNullException.ThrowIfNull(cpuLine);
        var fields = cpuLine.Split(' ', StringSplitOptions.RemoveEmptyEntries);
        if (fields.Length < 9 || fields[0] != "cpu")
        {
            throw new FormatException("not the /proc/stat cpu line: need 'cpu' and at least 8 counters");
        }

        long Field(int i) => long.Parse(fields[i], NumberStyles.None, CultureInfo.InvariantCulture);
        return Field(1) + Field(2) + Field(3) + Field(6) + Field(7) + Field(8);
    }

    /// <summary>Resident set size in MB (<c>VmRSS</c> of <c>/proc/&lt;pid&gt;/status</c>), or null when the process is gone.</summary>
    public static double? ReadRssMegabytes(int pid)
    {
        try
        {
            var line = File.ReadLines(string.Create(CultureInfo.InvariantCulture, $"/proc/{pid}/status")).FirstOrDefault(l => l.StartsWith("VmRSS:", StringComparison.Ordinal));
            return line is null ? null : long.Parse(line["VmRSS:".Length..].Replace("kB", "", StringComparison.Ordinal).Trim(), CultureInfo.InvariantCulture) / 1024.0;
        }
        catch (Exception e) when (e is FileNotFoundException or DirectoryNotFoundException or IOException)
        {
            return null;
        }
    }

    /// <summary>
    /// utime + stime (fields 14 and 15, in clock ticks) of a <c>/proc/&lt;pid&gt;/stat</c> line. The fields are
    /// counted after the last ')' because the command name in field 2 may itself hold spaces and parentheses.
    /// </summary>
    public static long ParseTicks(string stat)
    {
        // After ") " come field 3 (state) onwards: utime is field 14, so index 11 here; stime index 12.
        var fields = FieldsAfterName(stat);
        if (fields.Length < 13)
        {
            throw new FormatException($"not a /proc/<pid>/stat line: {fields.Length + 2} fields, need at least 15");
        }

        return long.Parse(fields[11], NumberStyles.None, CultureInfo.InvariantCulture) + long.Parse(fields[12], NumberStyles.None, CultureInfo.InvariantCulture);
    }

    /// <summary>The process's <c>/proc/&lt;pid&gt;/stat</c> line, or null when it is gone.</summary>
    private static string? ReadStat(int pid)
    {
        try
        {
            return File.ReadAllText(string.Create(CultureInfo.InvariantCulture, $"/proc/{pid}/stat"));
        }
        catch (Exception e) when (e is FileNotFoundException or DirectoryNotFoundException or IOException)
        {
            return null;
        }
    }

    private static string[] FieldsAfterName(string stat)
    {
        ArgumentNullException.ThrowIfNull(stat);
        var close = stat.LastIndexOf(')');
        return close < 0
            ? throw new FormatException("not a /proc/<pid>/stat line: no ')' after the command name")
            : stat[(close + 1)..].Split(' ', StringSplitOptions.RemoveEmptyEntries);
    }

    private static int ReadClockTicks()
    {
        var info = new ProcessStartInfo("getconf", "CLK_TCK") { RedirectStandardOutput = true, UseShellExecute = false };
        using var process = Process.Start(info) ?? throw new InvalidOperationException("getconf did not start");
        var text = process.StandardOutput.ReadToEnd().Trim();
        process.WaitForExit();
        return int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var ticks) && ticks > 0
            ? ticks
            : throw new InvalidOperationException($"getconf CLK_TCK printed '{text}'");
    }
}
