using System.Text;

namespace SensorPipeline.EndToEnd.Bench;

/// <summary>The one markdown table set the bench prints and appends to <c>.pipeline/bench/e2e.md</c>.</summary>
internal static class Report
{
    // The figures of "Processing 100,000 events per second on Azure Functions"
    // (https://azure.microsoft.com/blog/processing-100-000-events-per-second-on-azure-functions/): what ours stand beside.
    private const double PublishedP99Ms = 11_900;
    private const double PublishedMaxMs = 240_000;

    public static string Markdown(BenchArguments arguments, IReadOnlyList<string> args, PhaseFigures raw, PhaseFigures ceiling, PhaseFigures latency, double halfRate)
    {
        var c = CultureInfo.InvariantCulture;
        var s = new StringBuilder();
        s.AppendLine(c, $"## e2e bench {DateTimeOffset.UtcNow:yyyy-MM-dd HH:mm} UTC — `{string.Join(' ', ["./pipeline", "bench", "e2e", .. args])}`");
        s.AppendLine();
        s.AppendLine(c, $"{Environment.ProcessorCount} cores; every process on this machine, loopback only. Handler `Pipeline__WriteParallelism={arguments.WriteParallelism}`; each phase on a freshly started stack (empty stand-in). " +
            $"Load average at the end: {LoadAverage()}.");
        s.AppendLine();
        Targets.Append(s, arguments, raw, ceiling, latency, halfRate);
        s.AppendLine("| phase | documents | seconds | documents/s | readings/s sent | vs raw ceiling | notes |");
        s.AppendLine("|---|---:|---:|---:|---:|---:|---|");
        s.AppendLine(c, $"| 1. raw upsert loop (stand-in ceiling) | {raw.Documents:N0} | {raw.Seconds:F1} | **{raw.DocumentsPerSecond:N0}** | – | 1.00× | {raw.Notes} |");
        foreach (var phase in new[] { ceiling, latency })
        {
            s.AppendLine(c, $"| {(phase == ceiling ? "2. chain ceiling" : "3. chain at half ceiling")} | {phase.Documents:N0} | {phase.Seconds:F1} | **{phase.DocumentsPerSecond:N0}** | {phase.ReadingsPerSecond:N0} | " +
                $"{(phase == ceiling ? $"**{phase.DocumentsPerSecond / raw.DocumentsPerSecond:F2}×**" : "–")} | {phase.Notes} |");
        }

        s.AppendLine();
        s.AppendLine("Chain documents/s = documents written (live + archive; the processors' `DocumentsWritten` in devhost's telemetry summary) ÷ " +
            "(first send, loadgen ledger `startedAt` → the first of three consecutive status polls, 250 ms apart, with zero lag on every consumer group and partition). " +
            "Readings/s sent = ledger `readingsSent` ÷ ledger `elapsedSeconds`. Target for phase 2: ≥ 0.90× phase 1.");
        s.AppendLine();
        s.AppendLine(c, $"End-to-end latency (ingestion enqueued → document written, ms, exact to one histogram bucket; worse processor per percentile) at {halfRate:N0} readings/s for {arguments.Minutes:0.#} min:");
        s.AppendLine();
        s.AppendLine("| run | readings | P50 | P90 | P99 | P99.9 | max |");
        s.AppendLine("|---|---:|---:|---:|---:|---:|---:|");
        foreach (var phase in new[] { latency, ceiling })
        {
            var l = phase.Latency;
            s.AppendLine(c, $"| ours, {(phase == latency ? "half ceiling" : "ceiling run (a backlog; for reference)")} | {l?.Count ?? 0:N0} | {Ms(l?.P50)} | {Ms(l?.P90)} | **{Ms(l?.P99)}** | {Ms(l?.P999)} | **{Ms(l?.Max)}** |");
        }

        s.AppendLine(c, $"| Azure Functions at 100,000 events/s (published) | – | – | – | {PublishedP99Ms:N0} | – | {PublishedMaxMs:N0} |");
        s.AppendLine("| target | | | | ≤ 1,000 | | ≤ 5,000 |");
        s.AppendLine();
        s.AppendLine(c, $"CPU time per reading (µs; utime+stime from /proc/<pid>/stat, {ProcessCpu.TicksPerSecond} ticks/s, over each phase; loadgen from its ledger's `cpuSeconds`; raw phase per document):");
        s.AppendLine();
        s.AppendLine("| process | 1. raw loop | 2. ceiling | 3. half ceiling |");
        s.AppendLine("|---|---:|---:|---:|");
        foreach (var process in Processes.All)
        {
            s.AppendLine(c, $"| {process} | {Cpu(raw, raw.Documents, process)} | {Cpu(ceiling, ceiling.Readings, process)} | {Cpu(latency, latency.Readings, process)} |");
        }

        s.AppendLine(c, $"| **total of ours** | {Total(raw, raw.Documents)} | {Total(ceiling, ceiling.Readings)} | {Total(latency, latency.Readings)} |");
        s.AppendLine(c, $"| other programs on the machine | {Other(raw, raw.Documents)} | {Other(ceiling, ceiling.Readings)} | {Other(latency, latency.Readings)} |");
        s.AppendLine();
        s.AppendLine(c, $"Cores busy on average (all processes, /proc/stat): raw {Busy(raw, raw.Seconds)}, ceiling {Busy(ceiling, ceiling.Seconds)}, half ceiling {Busy(latency, latency.Seconds)} of {Environment.ProcessorCount}.");
        s.AppendLine("\"other programs\" is the machine's busy time minus ours (the bench's own time outside phase 1 included): a shared machine makes every figure noisy.");
        return s.ToString();
    }

    // The machine may be shared: the load average says how much, beside every figure.
    private static string LoadAverage()
    {
        try
        {
            return string.Join(" / ", File.ReadAllText("/proc/loadavg").Split(' ').Take(3)) + " (1 / 5 / 15 min)";
        }
        catch (IOException)
        {
            return "unknown";
        }
    }

    private static string Ms(double? value) => value is { } v ? v.ToString("N0", CultureInfo.InvariantCulture) : "–";

    private static string Cpu(PhaseFigures phase, long per, string process) =>
        phase.CpuMicrosPer(process, per) is { } micros ? micros.ToString("N0", CultureInfo.InvariantCulture) : "–";

    private static double Ours(PhaseFigures phase) => phase.CpuSeconds.Where(p => p.Key != Processes.Machine).Sum(p => p.Value ?? 0);

    private static string Total(PhaseFigures phase, long per) =>
        per > 0 ? (Ours(phase) * 1e6 / per).ToString("N0", CultureInfo.InvariantCulture) : "–";

    // loadgen's own figure is in the ledger (not /proc), and it ran inside the phase, so it is inside the machine's too.
    private static string Other(PhaseFigures phase, long per) =>
        per > 0 && phase.CpuSeconds.GetValueOrDefault(Processes.Machine) is { } machine
            ? (Math.Max(0, machine - Ours(phase)) * 1e6 / per).ToString("N0", CultureInfo.InvariantCulture)
            : "–";

    private static string Busy(PhaseFigures phase, double seconds) =>
        phase.CpuSeconds.GetValueOrDefault(Processes.Machine) is { } machine ? (machine / seconds).ToString("F2", CultureInfo.InvariantCulture) : "–";
}
