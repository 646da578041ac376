namespace SensorPipeline.Functions.Bench;

/// <summary>A process's resident memory from <c>/proc/&lt;pid&gt;/status</c> (Linux): the current resident set and its
/// peak (VmHWM), which <see cref="ResetPeak"/> lowers to the current resident set so a peak covers one phase only.</summary>
internal static class HandlerMemory
{
    /// <summary>VmHWM, kB: the peak resident set since start or since the last <see cref="ResetPeak"/>.</summary>
    public static long PeakKb(int pid) => Field(pid, "VmHWM");

    /// <summary>VmRSS, kB: the resident set now.</summary>
    public static long ResidentKb(int pid) => Field(pid, "VmRSS");

    /// <summary>Writing 5 to clear_refs resets VmHWM to the current RSS (proc(5)); the process must be ours.</summary>
    public static void ResetPeak(int pid) => File.WriteAllText($"/proc/{pid}/clear_refs", "5");

    private static long Field(int pid, string field)
    {
        foreach (var line in File.ReadLines($"/proc/{pid}/status"))
        {
            if (line.StartsWith(field + ":", StringComparison.Ordinal))
            {
                return long.Parse(line.AsSpan(field.Length + 1).Trim().TrimEnd("kB").Trim(), CultureInfo.InvariantCulture);
            }
        }

        throw new InvalidOperationException($"{field} not in /proc/{pid}/status");
    }
}
