using System.Text.Json;

namespace SensorPipeline.Functions.Bench;

/// <summary>The 1-minute load average at a phase's moments.</summary>
internal sealed record Loads(double AtFill, double AtStart, double AtEnd);

/// <summary><c>loadgen verify --json</c>'s exit code and verdict for one phase's ledger.</summary>
internal sealed record Verification(int ExitCode, JsonElement Verdict)
{
    public bool Passed => ExitCode == 0 && Count("missing") == 0 && Count("duplicated") == 0;

    public long Count(string name) => BacklogLoad.VerdictCount(Verdict, name);

    public override string ToString() => string.Create(CultureInfo.InvariantCulture,
        $"{(Passed ? "PASSED" : "FAILED")}: {Count("sent"):N0} sent, {Count("missing"):N0} missing, {Count("duplicated"):N0} duplicated");
}

/// <summary>One instance of a drain: its CPU seconds (instance + handler, null when either was gone at an end) and its
/// cold start (process start → first invocation served, null when it served none).</summary>
internal sealed record InstanceFigures(string Id, string Function, double? CpuSeconds, double? ColdStartSeconds);

/// <summary>A backlog drained by <paramref name="Instances"/> instances of each processor.</summary>
internal sealed record DrainStep(int Instances, long Readings, long Envelopes, TimeSpan Fill, TimeSpan Drain,
    IReadOnlyDictionary<string, double> ReadingsReceived, IReadOnlyList<InstanceFigures> PerInstance, double MachineCpuSeconds, Loads Load, Verification Verify,
    Verification ColdVerify);

/// <summary>One WeatherProcessor instance killed among <paramref name="Instances"/>: per partition it owned, seconds
/// until a survivor owned it and which; owner changes devhost saw; events redelivered (lower bound); rewinds.</summary>
internal sealed record RebalanceStep(int Instances, string Victim, IReadOnlyDictionary<string, (double Seconds, string Owner)> Reowned,
    IReadOnlyDictionary<string, long> OwnerChanges, double Redelivered, long Rewinds, Loads Load, Verification Verify);

/// <summary>What <see cref="ScaleBench"/> measured, and the tables it prints.</summary>
internal sealed record ScaleFigures(ScaleArguments Arguments, IReadOnlyList<DrainStep> Drains, IReadOnlyList<RebalanceStep> Rebalances)
{
    public bool Passed => Drains.All(d => d.Verify.Passed) && Rebalances.All(r => r.Verify.Passed);

    public void Print(TextWriter output)
    {
        ArgumentNullException.ThrowIfNull(output);
        Line(output, $"Scale-out on the local Release stack, {Environment.ProcessorCount} cores: each instance a `devhost instance` process with its own published handler process; the splitter one instance; backlog {Arguments.Readings:N0} readings in events of {Arguments.ReadingsPerEvent:N0} over {Arguments.Devices:N0} devices.");
        output.WriteLine("| instances per processor | drained (every instance resumed → every checkpoint at its end) | readings/s | CPU per reading, instances + handlers: " + string.Join(" / ", BacklogLoad.Processors) + " | CPU per instance (instance + handler), mean (min–max) | machine busy (of " + Environment.ProcessorCount + " cores) | cold start, process start → first invocation: min / median / max | verify: backlog; cold-start load | load average at fill / resume / end |");
        output.WriteLine("|---|---|---|---|---|---|---|---|---|");
        foreach (var d in Drains)
        {
            var cpu = d.PerInstance.Where(i => i.CpuSeconds is not null).Select(i => i.CpuSeconds!.Value).DefaultIfEmpty(0).ToList();
            var cold = d.PerInstance.Where(i => i.ColdStartSeconds is not null).Select(i => i.ColdStartSeconds!.Value).Order().ToList();
            var coldText = cold.Count == 0 ? "–" : string.Create(CultureInfo.InvariantCulture, $"{cold[0]:F1} / {cold[cold.Count / 2]:F1} / {cold[^1]:F1} s ({cold.Count} of {d.PerInstance.Count})");
            Line(output, $"| {d.Instances} | {d.Drain.TotalSeconds:N1} s ({d.Envelopes:N0} envelopes) | **{d.Readings / Math.Max(d.Drain.TotalSeconds, 0.001):N0}** | {string.Join(" / ", BacklogLoad.Processors.Select(p => PerReading(d, p)))} µs | {cpu.Average():F1} s ({cpu.Min():F1}–{cpu.Max():F1}) | {d.MachineCpuSeconds / Math.Max(d.Drain.TotalSeconds, 0.001):F2} | {coldText} | {d.Verify}; {(d.ColdVerify.Passed ? "PASSED" : d.ColdVerify.ToString())} | {d.Load.AtFill:F1} / {d.Load.AtStart:F1} / {d.Load.AtEnd:F1} |");
        }

        output.WriteLine();
        if (Rebalances.Count > 0)
        {
            Line(output, $"Rebalance: kill -9 of one WeatherProcessor instance and its handler while it owns partitions and serves {Arguments.KillReadings:N0} readings in flight; ownership intervals configured for the instances: cycle {Arguments.UpdateInterval.TotalSeconds:N1} s, **expiration {Arguments.Expiration.TotalSeconds:N1} s** (Azure's defaults: {ScaleArguments.AzureDefaults.Update.TotalSeconds:N0} s / {ScaleArguments.AzureDefaults.Expiration.TotalSeconds:N0} s).");
            output.WriteLine("| instances per processor | killed | its partitions: owned again after (new owner) | longest unowned | configured expiration | owner changes on them (whole run) | events redelivered (≥) | checkpoint rewinds | verify | load average at kill / end |");
            output.WriteLine("|---|---|---|---|---|---|---|---|---|---|");
            foreach (var r in Rebalances)
            {
                var partitions = string.Join(", ", r.Reowned.OrderBy(p => p.Key, StringComparer.Ordinal).Select(p => string.Create(CultureInfo.InvariantCulture, $"{p.Key}: {p.Value.Seconds:F1} s ({p.Value.Owner})")));
                var changes = string.Join(", ", r.OwnerChanges.OrderBy(p => p.Key, StringComparer.Ordinal).Select(p => $"{p.Key}: {p.Value}"));
                Line(output, $"| {r.Instances} | {r.Victim} | {partitions} | **{r.Reowned.Values.Max(v => v.Seconds):F1} s** | {Arguments.Expiration.TotalSeconds:N1} s | {changes} | {Math.Max(0, r.Redelivered):N0} | {r.Rewinds:N0} | {r.Verify} | {r.Load.AtStart:F1} / {r.Load.AtEnd:F1} |");
            }

            output.WriteLine("Owned again: the first 100 ms poll of a surviving instance's own /status/functions that shows it owning the partition. Redelivered: envelopes the WeatherProcessor handlers received during the phase minus those appended to the weather hub; the killed handler's last metric period (≤ 2 s) never arrives, so the true count may be higher; host.json's bound is maxEventBatchSize × batchCheckpointFrequency per moved partition.");
            output.WriteLine();
        }

        Line(output, $"On {Environment.ProcessorCount} cores more instances compete for the same CPU (and with devhost, the Cosmos DB emulator and loadgen), so throughput is not expected to grow with instances; each added instance also adds a host and a handler process of its own. Readings/s: the backlog over the time from resuming every (warm, balanced, paused) instance until every checkpoint is at its hub's end. CPU per reading: the instances' and their handlers' user + system time (/proc/<pid>/stat) over the same time, per processor function, over the readings its handlers received. Cold start: each instance started (with the others) onto a waiting backlog of {Arguments.ColdReadings:N0} readings; its process's age (/proc/<pid>/stat starttime) at the first 100 ms poll of its own status showing an invocation served — the devhost instance start-up, the published handler's start, the first ownership claim, the first read and invocation.");
    }

    private static string PerReading(DrainStep d, string function)
    {
        var seconds = d.PerInstance.Where(i => i.Function == function).Sum(i => i.CpuSeconds ?? 0);
        var readings = d.ReadingsReceived.GetValueOrDefault(function);
        return readings > 0 ? (seconds / readings * 1e6).ToString("N0", CultureInfo.InvariantCulture) : "–";
    }

    private static void Line(TextWriter output, FormattableString text) => output.WriteLine(text.ToString(CultureInfo.InvariantCulture));
}
