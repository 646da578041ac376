using System.Text;

namespace SensorPipeline.EndToEnd.Bench;

/// <summary>The one markdown table set the bench prints and appends to <c>.pipeline/bench/e2e.md</c>.</summary>
internal static class Report
{
    // The figures of "Processing 100,000 events per second on Azure Functions"
    // (https://azure.microsoft.com/blog/processing-100-000-events-per-second-on-azure-functions/): what ours stand beside.
    private const double PublishedP99Ms = 11_900;
    private const double PublishedMaxMs = 240_000;

    public static string Markdown(BenchArguments arguments, IReadOnlyList<string> args, PhaseFigures raw, PhaseFigures ceiling, IReadOnlyList<LatencyRun> runs)
    {
        var c = CultureInfo.InvariantCulture;
        var s = new StringBuilder();
        s.AppendLine(c, $"## e2e bench {DateTimeOffset.UtcNow:yyyy-MM-dd HH:mm} UTC — `{string.Join(' ', ["./pipeline", "bench", "e2e", .. args])}`");
        s.AppendLine();
        s.AppendLine(c, $"{Environment.ProcessorCount} cores; every process on this machine, loopback only. Handler `Pipeline__WriteParallelism={arguments.Ceiling.WriteParallelism}`; each phase on a freshly started stack (empty stand-in). " +
            $"Load average at the end: {LoadAverage()}.");
        s.AppendLine();
        Targets.Append(s, arguments, raw, ceiling, runs);
        s.AppendLine("| phase | documents | seconds | documents/s | readings/s sent | vs raw ceiling | notes |");
        s.AppendLine("|---|---:|---:|---:|---:|---:|---|");
        s.AppendLine(c, $"| 1. raw upsert loop (stand-in ceiling) | {raw.Documents:N0} | {raw.Seconds:F1} | **{raw.DocumentsPerSecond:N0}** | – | 1.00× | {raw.Notes} |");
        s.AppendLine(c, $"| 2. chain ceiling | {ceiling.Documents:N0} | {ceiling.Seconds:F1} | **{ceiling.DocumentsPerSecond:N0}** | {ceiling.ReadingsPerSecond:N0} | **{ceiling.DocumentsPerSecond / raw.DocumentsPerSecond:F2}×** | {ceiling.Notes} |");
        foreach (var (run, number) in runs.Select((r, i) => (r, i + 3)))
        {
            var phase = run.Figures;
            s.AppendLine(c, $"| {number}. chain at {run.Target.Label} | {phase.Documents:N0} | {phase.Seconds:F1} | **{phase.DocumentsPerSecond:N0}** | {phase.ReadingsPerSecond:N0} | – | {phase.Notes} |");
        }

        s.AppendLine();
        s.AppendLine("Chain documents/s = documents written (live + archive; the processors' `DocumentsWritten` in devhost's telemetry summary) ÷ " +
            "(first send, loadgen ledger `startedAt` → the first of three consecutive status polls, 250 ms apart, with zero lag on every consumer group and partition). " +
            "Readings/s sent = ledger `readingsSent` ÷ ledger `elapsedSeconds`. Target for phase 2: ≥ 0.90× phase 1.");
        s.AppendLine();
        AppendLatency(s, arguments, ceiling, runs);
        AppendCpu(s, raw, ceiling, runs);
        return s.ToString();
    }

    private static void AppendLatency(StringBuilder s, BenchArguments arguments, PhaseFigures ceiling, IReadOnlyList<LatencyRun> runs)
    {
        var c = CultureInfo.InvariantCulture;
        s.AppendLine(c, $"End-to-end latency (ingestion enqueued → document written, ms, exact to one histogram bucket; worse processor per percentile), {arguments.Minutes:0.#} min at each rate:");
        s.AppendLine();
        s.AppendLine("| run | readings | P50 | P90 | P99 | P99.9 | max |");
        s.AppendLine("|---|---:|---:|---:|---:|---:|---:|");
        foreach (var run in runs)
        {
            LatencyRow(s, $"ours, {run.Target.Label} ({run.Rate:N0} readings/s)", run.Figures.Latency);
            s.AppendLine(c, $"| target at {run.Target.Label} | | | | {run.Target.P99.Describe("N0", "")} | | {run.Target.Max.Describe("N0", "")} |");
        }

        LatencyRow(s, "ours, ceiling run (a backlog; for reference)", ceiling.Latency);
        s.AppendLine(c, $"| Azure Functions at 100,000 events/s (published) | – | – | – | {PublishedP99Ms:N0} | – | {PublishedMaxMs:N0} |");
        s.AppendLine();
    }

    private static void LatencyRow(StringBuilder s, string run, LatencyFigures? l) =>
        s.AppendLine(CultureInfo.InvariantCulture, $"| {run} | {l?.Count ?? 0:N0} | {Ms(l?.P50)} | {Ms(l?.P90)} | **{Ms(l?.P99)}** | {Ms(l?.P999)} | **{Ms(l?.Max)}** |");

    private static void AppendCpu(StringBuilder s, PhaseFigures raw, PhaseFigures ceiling, IReadOnlyList<LatencyRun> runs)
    {
        var c = CultureInfo.InvariantCulture;
        // Per document in the raw loop (it has no readings), per reading in every chain phase.
        List<(string Name, PhaseFigures Phase, long Per)> columns =
        [
            ("1. raw loop", raw, raw.Documents), ("2. ceiling", ceiling, ceiling.Readings),
            .. runs.Select((r, i) => ($"{i + 3}. {r.Target.Label}", r.Figures, r.Figures.Readings)),
        ];
        s.AppendLine(c, $"CPU time per reading (µs; utime+stime from /proc/<pid>/stat, {ProcessCpu.TicksPerSecond} ticks/s, over each phase; loadgen from its ledger's `cpuSeconds`; raw phase per document):");
        s.AppendLine();
        s.AppendLine($"| process | {string.Join(" | ", columns.Select(p => p.Name))} |");
        s.AppendLine($"|---|{string.Concat(columns.Select(_ => "---:|"))}");
        foreach (var process in Processes.All)
        {
            s.AppendLine($"| {process} | {string.Join(" | ", columns.Select(p => Cpu(p.Phase, p.Per, process)))} |");
        }

        s.AppendLine($"| **total of ours** | {string.Join(" | ", columns.Select(p => Total(p.Phase, p.Per)))} |");
        s.AppendLine($"| other programs on the machine | {string.Join(" | ", columns.Select(p => Other(p.Phase, p.Per)))} |");
        s.AppendLine();
        s.AppendLine($"Cores busy on average (all processes, /proc/stat): {string.Join(", ", columns.Select(p => $"{p.Name} {Busy(p.Phase, p.Phase.Seconds)}"))} of {Environment.ProcessorCount}.");
        s.AppendLine("\"other programs\" is the machine's busy time minus ours (the bench's own time outside phase 1 included): a shared machine makes every figure noisy.");
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
