using System.Text.Json;

namespace SensorPipeline.Stack.Chaos;

/// <summary>
/// <c>./pipeline chaos</c>: the fault matrix against the running local stack under steady load. Each fault gets a phase
/// of its own — its own loadgen run, devices and ledger — so every row of the table is verified by point reads on its
/// own: injected at random points several times (a full run) while readings flow, then drained and verified.
/// </summary>
public static class ChaosRun
{
    private static readonly JsonSerializerOptions Json = new(JsonSerializerDefaults.Web) { WriteIndented = true };

    public static async Task<IReadOnlyList<ChaosRow>> RunAsync(LocalPipeline pipeline, ChaosOptions options, TextWriter output, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(pipeline);
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(output);
        var faults = Select(options.Only);
        var phaseLoad = TimeSpan.FromSeconds(Math.Max(ChaosOptions.MinimumPhase.TotalSeconds, options.Minutes * 60 / faults.Count));
        // One injection per 15 s of load, at least one, at most six per phase.
        var injections = (int)Math.Clamp(phaseLoad.TotalSeconds / 15, 1, 6);
        var random = new Random(options.Seed);
        await output.WriteLineAsync(string.Create(CultureInfo.InvariantCulture,
            $"chaos: {faults.Count} faults, {phaseLoad.TotalSeconds:N0} s of load each at {options.Rate:N0} readings/s, {injections} injection(s) per fault, seed {options.Seed}"));

        var rows = new List<ChaosRow>();
        var explained = 0;
        var total = 0;
        await using var monitor = new ProgressWatch(pipeline);
        for (var index = 0; index < faults.Count; index++)
        {
            var fault = faults[index];
            var phase = new Phase(pipeline, options, fault, index, phaseLoad, injections, random);
            var row = await phase.RunAsync(monitor, output, cancellationToken);
            (total, explained) = (phase.DeadLetters.Total, explained + phase.DeadLetters.Explained);
            rows.Add(row);
            await output.WriteLineAsync(string.Create(CultureInfo.InvariantCulture,
                $"  {(row.Passed ? "ok  " : "FAIL")} {row.Fault}: {row.Acknowledged:N0} acknowledged, {row.Missing} missing, stall {row.LongestStall.TotalSeconds:N1} s{(row.Passed ? "" : " — " + string.Join("; ", row.Problems))}"));
        }

        // Every dead letter in the store must belong to a phase: an injection, or a phase's own devices.
        if (total != explained && rows.Count > 0)
        {
            var last = rows[^1];
            rows[^1] = last with { Problems = [.. last.Problems, $"{total - explained} dead letters in the store belong to no phase"] };
        }

        await File.WriteAllTextAsync(Path.Combine(pipeline.Options.DataDirectory, "chaos.json"),
            JsonSerializer.Serialize(rows, Json), cancellationToken);
        return rows;
    }

    /// <summary>The faults whose names contain one of <paramref name="only"/> (case-insensitive); all when empty.</summary>
    public static IReadOnlyList<ChaosFault> Select(IReadOnlyList<string> only)
    {
        ArgumentNullException.ThrowIfNull(only);
        if (only.Count == 0)
        {
            return ChaosFaults.All;
        }

        var selected = ChaosFaults.All.Where(f => only.Any(o => f.Name.Contains(o, StringComparison.OrdinalIgnoreCase))).ToList();
        return selected.Count > 0
            ? selected
            : throw new ArgumentException($"--faults: '{string.Join(",", only)}' matches none of: {string.Join(", ", ChaosFaults.All.Select(f => f.Name))}");
    }
}
