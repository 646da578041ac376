using System.Text.Json;

namespace SensorPipeline.Stack.Chaos;

/// <summary>One fault's phase of a chaos run: load, injections at random points, drain, verify, one row.</summary>
internal sealed class Phase(LocalPipeline pipeline, ChaosOptions options, ChaosFault fault, int index, TimeSpan load, int injections, Random random)
{
    private static readonly TimeSpan DrainTimeout = TimeSpan.FromMinutes(5);
    private static readonly TimeSpan RecoveryTimeout = TimeSpan.FromMinutes(2);

    private readonly string _name = string.Create(CultureInfo.InvariantCulture, $"phase-{index + 1:D2}");

    /// <summary>Dead letters in the store once the phase has drained, and of those the ones its injections explain.</summary>
    public (int Total, int Explained) DeadLetters { get; private set; }

    public async Task<ChaosRow> RunAsync(ProgressWatch monitor, TextWriter output, CancellationToken cancellationToken)
    {
        var problems = new List<string>();
        var directory = Path.Combine(pipeline.Options.DataDirectory, "chaos");
        Directory.CreateDirectory(directory);
        var ledger = Path.Combine(directory, _name + ".ledger.json");
        var loadArguments = fault.LoadArguments(injections);
        await output.WriteLineAsync($"{_name} {fault.Name}: {fault.Description}");
        monitor.Reset();

        var started = DateTimeOffset.UtcNow;
        TimeSpan? recovery = null;
        var injected = 0;
        await using (var loadgen = ChildProcess.Start(LoadGen(ledger, loadArguments)))
        {
            if (fault.InjectAsync is { } inject)
            {
                (injected, recovery) = await InjectAllAsync(inject, started, monitor, problems, cancellationToken);
            }

            var exit = await loadgen.WaitForExitAsync(cancellationToken);
            if (exit != 0)
            {
                problems.Add($"loadgen exited {exit} (see {loadgen.LogPath})");
            }
        }

        await pipeline.WaitForDrainAsync(DrainTimeout, TimeSpan.FromMilliseconds(500), cancellationToken);
        var stall = monitor.LongestStall;
        var retried = monitor.RetriedInvocations;
        var (_, v) = await Demo.VerifyAsync(pipeline, ledger, Path.Combine(directory, _name + ".verdict.json"), cancellationToken);
        using var ledgerJson = JsonDocument.Parse(await File.ReadAllTextAsync(ledger, cancellationToken));
        var counts = ledgerJson.RootElement.GetProperty("counts");
        var matched = v.GetProperty("deadLettered").GetInt32();
        // Dead letters of good data are attributed to the phase by its device ids (verify's "unexplained").
        var unexpected = v.GetProperty("unexplainedDeadLetters").GetInt32();
        DeadLetters = (v.GetProperty("deadLettersTotal").GetInt32(), matched + unexpected);
        if (fault.InjectAsync is null)
        {
            injected = CarriedByLoad(counts);
        }

        var row = new ChaosRow(fault.Name, injected, v.GetProperty("sent").GetInt64(), v.GetProperty("written").GetInt64(), v.GetProperty("archived").GetInt64(),
            matched, v.GetProperty("injectedSent").GetInt32(), unexpected, v.GetProperty("missing").GetInt64(), v.GetProperty("duplicated").GetInt64(),
            Long(counts, "duplicateReadingsSent"), retried, v.GetProperty("deviceMismatches").GetInt32(), stall, recovery, []);
        // The row's own figures decide the rest of its verdict, after the problems seen while it ran.
        Judge(row, Long(counts, "malformedAccepted"), problems);
        return row with { Problems = problems };
    }

    private async Task<(int Injected, TimeSpan? Recovery)> InjectAllAsync(Func<FaultContext, CancellationToken, Task> inject, DateTimeOffset started,
        ProgressWatch monitor, List<string> problems, CancellationToken cancellationToken)
    {
        TimeSpan? recovery = null;
        var injected = 0;
        foreach (var at in InjectionPoints())
        {
            var wait = started + at - DateTimeOffset.UtcNow;
            if (wait > TimeSpan.Zero)
            {
                await Task.Delay(wait, cancellationToken);
            }

            var baseline = monitor.BaselineLag();
            await inject(new FaultContext(pipeline, random, load), cancellationToken);
            injected++;
            var over = DateTimeOffset.UtcNow;
            var recovered = await monitor.WaitForRecoveryAsync(over, baseline, RecoveryTimeout, cancellationToken);
            if (recovered is null)
            {
                problems.Add($"no recovery within {RecoveryTimeout.TotalSeconds:N0} s of injection {injected}");
            }

            var took = (recovered ?? DateTimeOffset.UtcNow) - over;
            recovery = recovery is { } longest && longest > took ? longest : took;
        }

        return (injected, recovery);
    }

    // A fault carried by the load is counted by the ledger: the bad events loadgen sent or had refused.
    private static int CarriedByLoad(JsonElement counts)
    {
        var injected = (int)(Long(counts, "poisonSent") + Long(counts, "oversizeSent") + Long(counts, "truncatedSent") + Long(counts, "outOfRangeSent")
            + Long(counts, "forgedSent") + Long(counts, "malformedRefused") + Long(counts, "malformedAccepted"));
        // A fault the whole load carries (skewed clocks) has no count of its own: every event of the phase had it.
        return injected == 0 ? ChaosRow.WholePhase : injected;
    }

    private static void Judge(ChaosRow row, long malformedAccepted, List<string> problems)
    {
        if (row.Missing > 0)
        {
            problems.Add($"{row.Missing} acknowledged readings missing");
        }

        if (row.Duplicated > 0)
        {
            problems.Add($"{row.Duplicated} readings both written and archived");
        }

        if (row.DeadLetteredExpected != row.DeadLettersExpected)
        {
            problems.Add($"{row.DeadLettersExpected - row.DeadLetteredExpected} injected bad events not dead-lettered");
        }

        if (row.DeadLetteredUnexpected != 0)
        {
            problems.Add($"{row.DeadLetteredUnexpected} dead letters no injection explains");
        }

        if (row.DeviceMismatches > 0)
        {
            problems.Add($"{row.DeviceMismatches} devices' latest state behind");
        }

        if (malformedAccepted > 0)
        {
            problems.Add($"{malformedAccepted} malformed sends not refused");
        }

        if (row.Acknowledged == 0)
        {
            problems.Add("no reading was acknowledged");
        }
    }

    // Random points within 15–70% of the load, far enough apart that one injection's recovery can start before the next.
    private IEnumerable<TimeSpan> InjectionPoints()
    {
        var slot = load * 0.55 / injections;
        for (var i = 0; i < injections; i++)
        {
            yield return (load * 0.15) + (slot * i) + (slot * 0.5 * random.NextDouble());
        }
    }

    private ChildProcessOptions LoadGen(string ledger, IReadOnlyList<string> extra) => new()
    {
        Name = "loadgen", FileName = "dotnet", Arguments = LoadGenArguments(pipeline.Layout, pipeline.EventHubConnection, options, load, index, ledger, extra),
        WorkingDirectory = pipeline.Layout.Root, LogPath = Path.Combine(pipeline.Options.DataDirectory, "logs", _name + "-loadgen.log"),
    };

    /// <summary>loadgen's command line for phase <paramref name="index"/>: devices of every kind of sensor-kinds.json,
    /// the fault's <paramref name="extra"/> arguments last.</summary>
    internal static List<string> LoadGenArguments(RepoLayout layout, string eventHubConnection, ChaosOptions options, TimeSpan load, int index, string ledger, IReadOnlyList<string> extra) =>
    [
        layout.LoadGenDll, "--connection", eventHubConnection,
        "--rate", options.Rate.ToString(CultureInfo.InvariantCulture), "--duration", load.TotalSeconds.ToString("0.###", CultureInfo.InvariantCulture) + "s",
        .. KindLoad.DeviceArguments(options.DevicesPerKind), "--device-prefix", "chaos" + (index + 1).ToString("D2", CultureInfo.InvariantCulture),
        "--seed", (options.Seed + index).ToString(CultureInfo.InvariantCulture), "--ledger", ledger,
        // Sends ride out a devhost restart or a full disk: retried for minutes, never given up.
        "--max-attempts", "100", "--max-backoff", "2s", "--attempt-timeout", "15s",
        "--duplicate-every", "25", "--progress-interval", "5s",
        .. extra,
    ];

    private static long Long(JsonElement counts, string name) =>
        counts.TryGetProperty(name, out var value) && value.ValueKind == JsonValueKind.Number ? value.GetInt64() : 0;
}
