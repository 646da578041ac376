using System.Text;

namespace SensorPipeline.EndToEnd.Bench;

/// <summary>
/// The chain's targets, each beside the figure this run measured, with a verdict and, where it is missed, what the
/// run's own figures say limits it. CPU is absolute (µs per reading at the ceiling), so a faster store never hides a
/// slower chain.
/// </summary>
internal static class Targets
{
    public const double HandlerUs = 25;
    public const double DevHostUs = 10;
    public const double LoadGenUs = 5;

    /// <summary>Readings/s the whole chain carries on two cores with one partition key range (a floor, not a bound).</summary>
    public const double ChainReadingsPerSecond = 8_000;

    /// <summary>The latency runs, in the order the bench runs them: at half the ceiling, P99 ≤ 1 s and max ≤ 5 s; at three
    /// quarters, where a user running hot would be, P99 ≤ 300 ms and max ≤ 1 s.</summary>
    public static readonly IReadOnlyList<LatencyTarget> Latency =
    [
        new("half the ceiling", "half", 0.5, BenchTarget.AtMost(1_000), BenchTarget.AtMost(5_000)),
        new("75 % of the ceiling", "three-quarters", 0.75, BenchTarget.AtMost(300), BenchTarget.AtMost(1_000)),
    ];

    public static void Append(StringBuilder s, BenchArguments arguments, PhaseFigures raw, PhaseFigures ceiling, IReadOnlyList<LatencyRun> runs)
    {
        var c = CultureInfo.InvariantCulture;
        var perEvent = ceiling.Events > 0 ? (double)ceiling.Readings / ceiling.Events : 0;
        s.AppendLine(c, $"Targets (CPU per reading at the chain's ceiling, phase 2; {perEvent:N0} readings per event sent; latency in phases 3 and later):");
        s.AppendLine();
        s.AppendLine("| figure | measured | target | verdict | what limits it |");
        s.AppendLine("|---|---:|---:|---|---|");

        var handler = PerReading(ceiling, Processes.Handler);
        var perInvocation = ceiling.Invocations > 0 ? (double)ceiling.Readings / ceiling.Invocations : 0;
        Row(s, "handler CPU per reading", handler, HandlerUs, "µs",
            $"the Cosmos SDK's work per operation: each reading's bulk create, and a device state per ~10 readings (coalesced over W) " +
            $"({perInvocation:N0} readings per invocation here, functions counted together); then the garbage " +
            $"collector (~15 % of the handler). Per-invocation costs (request, response, bulk timer) and " +
            $"decode → validate → GeoJSON (under 1 µs, `./pipeline bench core`) are small beside them. Profile: docs/benchmarks.md, \"Handler CPU per reading in the live chain\"");

        var devhost = PerReading(ceiling, Processes.DevHost);
        var units = ceiling.Events + ceiling.Invocations;
        var perUnit = devhost is { } d && units > 0 ? d * ceiling.Readings / units : (double?)null;
        Row(s, "devhost CPU per reading (Event Hubs + Functions host)", devhost, DevHostUs, "µs",
            $"per request and invocation, not per reading: {Us(perUnit)} µs for each of {ceiling.Events:N0} sends received and {ceiling.Invocations:N0} invocations " +
            $"({units * 1000.0 / Math.Max(1, ceiling.Readings):F1} per 1,000 readings); more readings per event means fewer of both");

        var loadgen = PerReading(ceiling, Processes.LoadGen);
        Row(s, "loadgen CPU per reading", loadgen, LoadGenUs, "µs",
            $"{Us(loadgen is { } l && ceiling.Events > 0 ? l * ceiling.Readings / ceiling.Events : null)} µs per event sent, start-up (JIT) included; " +
            $"a short run spreads its start-up over fewer readings");

        s.AppendLine(c, $"| the store's own CPU per document (stand-in, raw loop) | {Us(PerDocument(raw, Processes.Cosmos))} µs | reported | – | at the ceiling: {Us(PerReading(ceiling, Processes.Cosmos))} µs per reading |");
        var offeredAbove = ceiling.ReadingsPerSecond > ceiling.DocumentsPerSecond * 1.05;
        s.AppendLine(c, $"| chain readings/s at the ceiling | {ceiling.DocumentsPerSecond:N0} | ≥ {ChainReadingsPerSecond:N0} | " +
            $"{BenchTarget.NoLessThan(ChainReadingsPerSecond).Judge(ceiling.DocumentsPerSecond).Text()} | " +
            $"{(offeredAbove ? "" : $"loadgen offered only {ceiling.ReadingsPerSecond:N0}/s, so this is a floor: raise --ceiling-rate; ")}" +
            $"the raw loop (point upserts, no bulk): {raw.DocumentsPerSecond:N0} documents/s; cores busy: the table below |");

        var shortRun = arguments.Minutes < BenchArguments.TargetMinutes
            ? $"a {arguments.Minutes:0.#}-minute run (`--quick` or `--minutes`); the target is for {BenchArguments.TargetMinutes:0} minutes"
            : "";
        foreach (var run in runs)
        {
            Row(s, $"P99 at {run.Target.Label} ({run.Rate:N0} readings/s, {arguments.Minutes:0.#} min)", run.Figures.Latency?.P99, run.Target.P99, "ms", shortRun);
            Row(s, $"max at {run.Target.Label}", run.Figures.Latency?.Max, run.Target.Max, "ms", shortRun);
        }

        s.AppendLine();
    }

    private static void Row(StringBuilder s, string figure, double? measured, double target, string unit, string limit) =>
        Row(s, figure, measured, BenchTarget.AtMost(target), unit, limit);

    private static void Row(StringBuilder s, string figure, double? measured, BenchTarget target, string unit, string limit)
    {
        var verdict = target.Judge(measured);
        var why = verdict == TargetVerdict.Missed ? limit : (limit.StartsWith("a ", StringComparison.Ordinal) ? limit : "");
        s.AppendLine(CultureInfo.InvariantCulture, $"| {figure} | {Us(measured)} {unit} | {target.Describe("N0", " " + unit)} | {verdict.Text()} | {why} |");
    }

    private static double? PerReading(PhaseFigures phase, string process) => phase.CpuMicrosPer(process, phase.Readings);

    private static double? PerDocument(PhaseFigures phase, string process) => phase.CpuMicrosPer(process, phase.Documents);

    private static string Us(double? value) => value switch
    {
        null => "–",
        < 10 => value.Value.ToString("N1", CultureInfo.InvariantCulture),
        _ => value.Value.ToString("N0", CultureInfo.InvariantCulture),
    };
}
