using System.Text.Json;
using SensorPipeline.Clients;
using SensorPipeline.Stack.Chaos;
using Spectre.Console;

namespace SensorPipeline.Stack;

/// <summary>What the demo runs: load for a while, a backlog episode, a little poison, then drain and verify.</summary>
public sealed class DemoOptions
{
    /// <summary>How long loadgen sends. Default 40 s.</summary>
    public TimeSpan Duration { get; init; } = TimeSpan.FromSeconds(40);

    /// <summary>
    /// Readings per second. Default 2,500: what this demo's chain carries on two cores with the backlog of a
    /// <see cref="PauseFor"/> pause worked off well within <see cref="MaxAge"/>, so a reading enqueued after the resume
    /// is never stale and every stale one comes from the episode (2026-11-26: 3,000/s on a quiet machine and 3,500/s at
    /// load average ~20 passed that check; 4,000/s at load average ~20 did not). The catch-up takes about
    /// pause × rate ÷ (ceiling − rate); a slower machine lowers the ceiling, so the default keeps a margin.
    /// </summary>
    public int Rate { get; init; } = 2500;

    /// <summary>The default rate with separate instances (<c>--instances</c>): each instance is a Functions host and a
    /// handler of its own, nine or more processes sharing two cores, so the chain carries far less than in one process
    /// (2026-11-26: at 1,000/s with three instances per function, P99 before the kill was 2.2–2.7 s).</summary>
    public const int SeparateInstancesRate = 500;

    /// <summary>Devices of each kind of sensor-kinds.json. Default 100 each.</summary>
    public int DevicesPerKind { get; init; } = 100;

    /// <summary>
    /// <c>Pipeline__MaxAge</c> for the run. The production default is 5 minutes; the demo shortens it so a
    /// short backlog episode really produces stale readings, and the episode stays a small part of the run so the
    /// latency table still describes the steady state. It must outlast the catch-up after the pause (see
    /// <see cref="Rate"/>), or readings enqueued after the resume go stale too. Default 10 s.
    /// </summary>
    public TimeSpan MaxAge { get; init; } = TimeSpan.FromSeconds(10);

    /// <summary>When the processors are paused (the backlog episode), into the run. Default 10 s; zero = no episode.</summary>
    public TimeSpan PauseAfter { get; init; } = TimeSpan.FromSeconds(10);

    /// <summary>How long they stay paused: longer than <see cref="MaxAge"/>, so the oldest of the backlog is stale. Default 12 s.</summary>
    public TimeSpan PauseFor { get; init; } = TimeSpan.FromSeconds(12);

    /// <summary>Undecodable events injected. Default 3.</summary>
    public int Poison { get; init; } = 3;

    /// <summary>Oversize events injected. Default 2.</summary>
    public int Oversize { get; init; } = 2;

    /// <summary>Re-send an acknowledged event after every K events (0 = never). Default 100.</summary>
    public int DuplicateEvery { get; init; } = 100;

    /// <summary>Random seed for the devices.</summary>
    public int Seed { get; init; } = 42;

    /// <summary>With separate instances: when one instance of the first kind's processor is killed (kill -9 of it and its handler)
    /// instead of the pause episode. Default 15 s; zero = no kill.</summary>
    public TimeSpan KillAfter { get; init; } = TimeSpan.FromSeconds(15);
}

/// <summary>The outcome of a demo run.</summary>
/// <param name="Verdict">verify's JSON verdict.</param>
/// <param name="Ledger">loadgen's ledger.</param>
/// <param name="Telemetry">The telemetry summary of the whole run.</param>
/// <param name="Phases">The run's steady state and backlog episode, each with its own telemetry summary.</param>
/// <param name="DrainTime">From loadgen's end until the pipeline had drained.</param>
/// <param name="LoadGenExitCode">loadgen's exit code.</param>
/// <param name="VerifyExitCode">verify's exit code.</param>
public sealed record DemoResult(JsonElement Verdict, JsonElement Ledger, JsonElement Telemetry, IReadOnlyList<(DemoPhase Phase, JsonElement Telemetry)> Phases,
    TimeSpan DrainTime, int LoadGenExitCode, int VerifyExitCode)
{
    public bool Passed => LoadGenExitCode == 0 && VerifyExitCode == 0 && Verdict.GetProperty("missing").GetInt64() == 0 && Verdict.GetProperty("duplicated").GetInt64() == 0;
}

/// <summary>Runs the demo against a started <see cref="LocalPipeline"/>.</summary>
public static class Demo
{
    public static async Task<DemoResult> RunAsync(LocalPipeline pipeline, DemoOptions demo, TextWriter output, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(pipeline);
        ArgumentNullException.ThrowIfNull(demo);
        ArgumentNullException.ThrowIfNull(output);
        var ledger = Path.Combine(pipeline.Options.DataDirectory, "ledger.json");
        var started = DateTimeOffset.UtcNow;
        var seconds = Seconds(demo.Duration);
        var send = LoadGenArguments(pipeline.Layout, pipeline.EventHubConnection, pauses: pipeline.Fleet is null, demo, ledger, seconds);
        // Separate instances have no pause endpoint of devhost's to honour: their episode is a killed instance.
        var killing = pipeline.Fleet is { } fleet && demo.KillAfter > TimeSpan.Zero
            ? KillLaterAsync(pipeline, fleet, demo.KillAfter, output, cancellationToken)
            : Task.FromResult<KillEpisode?>(null);

        await output.WriteLineAsync(Announcement(pipeline, demo, seconds));
        // Watched from outside for the whole run: the lag tells where the backlog episode ends (DemoPhases).
        await using var watch = new ProgressWatch(pipeline, keepHistory: true);
        var sendExit = await SendAsync(pipeline, send, cancellationToken);

        var sendEnded = DateTimeOffset.UtcNow;
        // The kill's episode ends when its partitions are owned again, which can be after loadgen stopped.
        var killEpisode = await killing;

        await output.WriteLineAsync("waiting for the pipeline to drain …");
        var drainedAt = await pipeline.WaitForDrainAsync(TimeSpan.FromMinutes(5), TimeSpan.FromMilliseconds(500), cancellationToken);
        var drain = drainedAt > sendEnded ? drainedAt - sendEnded : TimeSpan.Zero;
        await pipeline.WaitForLastMetricsAsync(cancellationToken);
        using var telemetry = await pipeline.GetTelemetrySummaryAsync(DateTimeOffset.UtcNow - started + TimeSpan.FromSeconds(30), cancellationToken);

        using var ledgerJson = JsonDocument.Parse(await File.ReadAllTextAsync(ledger, cancellationToken));
        var ended = DateTimeOffset.UtcNow;
        // A kill's row ends when its partitions had worked off their wait: the lag of the whole run cannot tell, since
        // it may not have settled before the kill.
        var episode = killEpisode is { } k ? (k.KilledAt, k.CaughtUpAt) : Episode(ledgerJson.RootElement);
        var episodeName = killEpisode is null ? DemoPhases.Backlog : DemoPhases.Killed;
        // The rows cover aggregation periods by their start, and the period in flight when the run started began before
        // it: the first row starts one period earlier, or a fast first send's documents fall outside every row.
        var phases = await PhaseTelemetryAsync(pipeline,
            DemoPhases.Split(started - pipeline.Options.MetricFlushInterval, ended, episode, watch.History, episodeName), cancellationToken);

        await output.WriteLineAsync("verifying every reading by point reads …");
        var (verifyExit, verdict) = await VerifyAsync(pipeline, ledger, Path.Combine(pipeline.Options.DataDirectory, "verdict.json"), cancellationToken, demo.MaxAge,
            killEpisode is { } killed ? [(killed.KilledAt, killed.OwnedAgainAt)] : []);
        return new DemoResult(verdict, ledgerJson.RootElement.Clone(), telemetry.RootElement.Clone(), phases, drain, sendExit, verifyExit);
    }

    /// <summary>loadgen's command line for the demo: devices of every kind and, with <paramref name="pauses"/> (one
    /// process: devhost honours the pause), every kind's processor paused for the backlog episode.</summary>
    internal static List<string> LoadGenArguments(RepoLayout layout, string eventHubConnection, bool pauses, DemoOptions demo, string ledger, string seconds)
    {
        ArgumentNullException.ThrowIfNull(layout);
        ArgumentNullException.ThrowIfNull(demo);
        List<string> send =
        [
            layout.LoadGenDll, "--connection", eventHubConnection,
            "--rate", demo.Rate.ToString(CultureInfo.InvariantCulture), "--duration", seconds,
            .. KindLoad.DeviceArguments(demo.DevicesPerKind),
            "--seed", demo.Seed.ToString(CultureInfo.InvariantCulture), "--ledger", ledger,
            "--poison", demo.Poison.ToString(CultureInfo.InvariantCulture), "--oversize", demo.Oversize.ToString(CultureInfo.InvariantCulture),
            "--duplicate-every", demo.DuplicateEvery.ToString(CultureInfo.InvariantCulture),
        ];
        if (demo.PauseAfter > TimeSpan.Zero && pauses)
        {
            send.AddRange([.. KindLoad.PauseArguments(layout),
                "--pause-after", Seconds(demo.PauseAfter), "--pause-for", Seconds(demo.PauseFor)]);
        }

        return send;
    }

    private static string Announcement(LocalPipeline pipeline, DemoOptions demo, string seconds) =>
        $"loadgen: {demo.Rate:N0} readings/s for {seconds}, {demo.Poison} poison + {demo.Oversize} oversize events, " +
        $"a duplicate every {demo.DuplicateEvery} events, " + (pipeline.Fleet is null
            ? $"processors paused {Seconds(demo.PauseFor)} after {Seconds(demo.PauseAfter)} (max age {Seconds(demo.MaxAge)})"
            : $"{pipeline.Options.Instances} instances per function, one {KindLoad.Processors(pipeline.Layout)[0]} instance killed after {Seconds(demo.KillAfter)} (max age {Seconds(demo.MaxAge)})");

    private static async Task<int> SendAsync(LocalPipeline pipeline, List<string> send, CancellationToken cancellationToken)
    {
        var logs = Path.Combine(pipeline.Options.DataDirectory, "logs");
        await using var loadgen = ChildProcess.Start(new ChildProcessOptions { Name = "loadgen", FileName = "dotnet", Arguments = send, LogPath = Path.Combine(logs, "loadgen.log"), Echo = true, WorkingDirectory = pipeline.Layout.Root });
        return await loadgen.WaitForExitAsync(cancellationToken);
    }

    private static async Task<List<(DemoPhase, JsonElement)>> PhaseTelemetryAsync(LocalPipeline pipeline, IReadOnlyList<DemoPhase> split, CancellationToken cancellationToken)
    {
        List<(DemoPhase, JsonElement)> phases = [];
        foreach (var phase in split)
        {
            using var summary = await pipeline.GetTelemetrySummaryAsync(phase.From, phase.To, cancellationToken);
            phases.Add((phase, summary.RootElement.Clone()));
        }

        return phases;
    }

    // The ledger's first backlog episode: loadgen paused the processors then (null when the run had none).
    private static (DateTimeOffset, DateTimeOffset)? Episode(JsonElement ledger) =>
        ledger.TryGetProperty("pauses", out var pauses) && pauses.ValueKind == JsonValueKind.Array && pauses.GetArrayLength() > 0
            ? (pauses[0].GetProperty("pausedAt").GetDateTimeOffset(), pauses[0].GetProperty("resumedAt").GetDateTimeOffset())
            : null;

    /// <summary>
    /// <c>loadgen verify</c> of a run's ledger against the pipeline's Cosmos DB (point reads of every reading and device
    /// state); its output goes to <paramref name="verdictPath"/>. Returns its exit code (0: nothing missing or doubled)
    /// and its JSON verdict. With <paramref name="maxAge"/>, it also counts stale readings enqueued outside the run's
    /// backlog episodes: the ledger's pauses and <paramref name="episodes"/> (a killed instance, which loadgen does not see).
    /// </summary>
    public static async Task<(int ExitCode, JsonElement Verdict)> VerifyAsync(LocalPipeline pipeline, string ledger, string verdictPath, CancellationToken cancellationToken,
        TimeSpan? maxAge = null, IReadOnlyList<(DateTimeOffset From, DateTimeOffset To)>? episodes = null)
    {
        ArgumentNullException.ThrowIfNull(pipeline);
        List<string> arguments =
        [
            pipeline.Layout.LoadGenDll, "verify", "--ledger", ledger, "--cosmos-endpoint", pipeline.CosmosEndpoint.ToString(),
            "--cosmos-key", CosmosEmulatorAccount.Key, "--database", pipeline.Options.DatabaseName, "--json",
        ];
        if (maxAge is { } age)
        {
            arguments.AddRange(["--max-age", Seconds(age)]);
            foreach (var (from, to) in episodes ?? [])
            {
                arguments.AddRange(["--episode", string.Create(CultureInfo.InvariantCulture, $"{from.UtcDateTime:O}/{to.UtcDateTime:O}")]);
            }
        }

        int exitCode;
        await using (var verify = ChildProcess.Start(new ChildProcessOptions { Name = "verify", FileName = "dotnet", Arguments = arguments, LogPath = verdictPath, WorkingDirectory = pipeline.Layout.Root }))
        {
            exitCode = await verify.WaitForExitAsync(cancellationToken);
        }

        using var verdict = JsonDocument.Parse(ExtractJsonObject(await File.ReadAllTextAsync(verdictPath, cancellationToken)));
        return (exitCode, verdict.RootElement.Clone());
    }

    /// <summary>Prints the one table a user reads: accounting, rates, latency percentiles, freshness.</summary>
    public static void Print(DemoResult result, LocalPipeline pipeline, IAnsiConsole console)
    {
        ArgumentNullException.ThrowIfNull(result);
        ArgumentNullException.ThrowIfNull(pipeline);
        ArgumentNullException.ThrowIfNull(console);
        PrintAccounting(result, console);
        PrintLatency(result, pipeline, console);
    }

    private static void PrintAccounting(DemoResult result, IAnsiConsole console)
    {
        var v = result.Verdict;
        var counts = result.Ledger.GetProperty("counts");
        var sent = v.GetProperty("sent").GetInt64();
        var elapsed = counts.GetProperty("elapsedSeconds").GetDouble();

        var accounting = new Table().Title(result.Passed ? "[green]every reading accounted for[/]" : "[red]READINGS LOST OR DOUBLED[/]");
        foreach (var column in new[] { "sent", "written", "archived as stale", "dead-lettered (injected)", "missing", "duplicated" })
        {
            accounting.AddColumn(new TableColumn(column).RightAligned());
        }

        accounting.AddRow(
            N(sent), N(v.GetProperty("written").GetInt64()), N(v.GetProperty("archived").GetInt64()),
            $"{v.GetProperty("deadLettered").GetInt32()} of {v.GetProperty("injectedSent").GetInt32()}",
            N(v.GetProperty("missing").GetInt64()), N(v.GetProperty("duplicated").GetInt64()));
        console.Write(accounting);
        console.MarkupLine(CultureInfo.InvariantCulture, $"sustained: [bold]{sent / Math.Max(elapsed, 0.001):N0}[/] readings/s sent over {elapsed:N1} s; drained {result.DrainTime.TotalSeconds:N1} s after loadgen stopped; " +
            $"{v.GetProperty("devices").GetInt32()} devices' latest state checked, {v.GetProperty("deviceMismatches").GetInt32()} behind");

        if (v.TryGetProperty("staleOutsideEpisodes", out var outside) && outside.ValueKind == JsonValueKind.Number)
        {
            var archived = v.GetProperty("archived").GetInt64();
            console.MarkupLine(CultureInfo.InvariantCulture, outside.GetInt64() == 0
                ? $"stale readings: [green]all {N(archived)} enqueued during the backlog episode or the max age before it[/]"
                : $"stale readings: [red]{N(outside.GetInt64())} of {N(archived)} enqueued outside the backlog episode[/]: the chain fell more than the max age behind on its own (try a lower --rate)");
        }
    }

    private static void PrintLatency(DemoResult result, LocalPipeline pipeline, IAnsiConsole console)
    {
        var latency = new Table().Title("end-to-end latency: ingestion enqueued → document written (ms, exact to one histogram bucket)");
        foreach (var column in new[] { "phase", "function", "documents", "P50", "P90", "P99", "P99.9", "max", "freshness max (ms)" })
        {
            latency.AddColumn(new TableColumn(column).RightAligned());
        }

        long covered = 0;
        var processors = Processors(result.Telemetry).Select(f => f.GetProperty("function").GetString() ?? "?").ToList();
        foreach (var (phase, telemetry) in result.Phases)
        {
            // Every processor in every phase, a phase without documents too: an empty "before" row says the chain was late.
            var byName = telemetry.GetProperty("functions").EnumerateArray().ToDictionary(f => f.GetProperty("function").GetString() ?? "?");
            foreach (var name in processors)
            {
                var function = byName.GetValueOrDefault(name);
                var e2e = function.ValueKind == JsonValueKind.Object && function.TryGetProperty("endToEnd", out var value) && value.ValueKind == JsonValueKind.Object ? value : default;
                var documents = function.ValueKind == JsonValueKind.Object ? function.GetProperty("documentsWritten").GetInt64() : 0;
                covered += documents;
                latency.AddRow(
                    phase.Name, name, N(documents),
                    Ms(e2e, "p50"), Ms(e2e, "p90"), Ms(e2e, "p99"), Ms(e2e, "p999"), Ms(e2e, "max"),
                    Ms(function, "freshnessMsMax"));
            }
        }

        console.Write(latency);
        var written = Processors(result.Telemetry).Sum(f => f.GetProperty("documentsWritten").GetInt64());
        console.MarkupLine(CultureInfo.InvariantCulture,
            $"the rows cover {N(covered)} of the {N(written)} documents written (redelivered duplicates included: each write is one document write); the backlog episode lasts from the pause (or the kill) until devhost's lag is back to its level before it; dashboard: [link]{pipeline.DashboardUrl}[/]");
    }

    // The functions that write documents: the splitter forwards events and writes none.
    private static IEnumerable<JsonElement> Processors(JsonElement telemetry) =>
        telemetry.GetProperty("functions").EnumerateArray().Where(f => f.GetProperty("documentsWritten").GetInt64() > 0 || f.TryGetProperty("endToEnd", out var e) && e.ValueKind == JsonValueKind.Object);

    /// <summary>
    /// Kills one instance of the first kind's processor after <paramref name="after"/> and returns its episode: from the kill until
    /// every partition it owned has a live owner again (its records expire, a survivor claims them) — readings on those
    /// partitions wait that long, so stale ones from it are the episode's, as with the pause — and when those partitions
    /// had worked off what waited (no lag left), where the episode's latency row ends. Null when nothing was killed.
    /// </summary>
    private static async Task<KillEpisode?> KillLaterAsync(LocalPipeline pipeline, SensorPipeline.Stack.Scaling.InstanceFleet fleet, TimeSpan after,
        TextWriter output, CancellationToken cancellationToken)
    {
        await Task.Delay(after, cancellationToken);
        var victim = KindLoad.Processors(pipeline.Layout)[0];
        if (fleet.Count(victim) == 0)
        {
            await output.WriteLineAsync($"no {victim} instance running to kill");
            return null;
        }

        var owned = (await pipeline.GetFunctionsStatusAsync(cancellationToken)).Functions.Single(f => f.Name == victim).Partitions;
        var killed = await fleet.KillOneAsync(victim);
        var killedAt = DateTimeOffset.UtcNow;
        var moved = owned.Where(p => p.Owner == killed).Select(p => p.PartitionId).ToHashSet(StringComparer.Ordinal);
        await output.WriteLineAsync($"killed instance {killed} (kill -9 of its host and handler) owning partitions {string.Join(", ", moved)}; they move once their ownership expires or is stolen");
        DateTimeOffset? ownedAgain = null;
        try
        {
            // Bounded well past Azure's 2-minute expiry: a survivor that never claims them ends the wait, and the output says so.
            var caughtUp = await Eventually.ValueAsync(async token =>
            {
                var partitions = (await pipeline.GetFunctionsStatusAsync(token)).Functions.Single(f => f.Name == victim).Partitions;
                var now = DateTimeOffset.UtcNow;
                if (ownedAgain is null && partitions.All(p => p.Owner is not null && p.Owner != killed))
                {
                    ownedAgain = now;
                    await output.WriteLineAsync(string.Create(CultureInfo.InvariantCulture, $"{killed}'s partitions owned again {(now - killedAt).TotalSeconds:N1} s after the kill"));
                }

                // Nothing left on the moved partitions (once owned again): the instant the episode caught up.
                return ownedAgain is not null && partitions.Where(p => moved.Contains(p.PartitionId)).All(p => p.Lag == 0) ? now : (DateTimeOffset?)null;
            }, now => now is not null, $"{killed}'s partitions owned again and worked off", killedAt + TimeSpan.FromMinutes(5) - DateTimeOffset.UtcNow,
                TimeSpan.FromMilliseconds(500), cancellationToken: cancellationToken);
            // One metric period later every document of the wait has been reported.
            return new KillEpisode(killedAt, ownedAgain!.Value, caughtUp!.Value + pipeline.Options.MetricFlushInterval);
        }
        catch (TimeoutException)
        {
            await output.WriteLineAsync($"{killed}'s partitions were not owned again and worked off within 5 minutes");
            return new KillEpisode(killedAt, ownedAgain ?? DateTimeOffset.UtcNow, DateTimeOffset.UtcNow);
        }
    }

    /// <summary>A killed instance: when, when its partitions were owned again, and when they had worked off their wait.</summary>
    private sealed record KillEpisode(DateTimeOffset KilledAt, DateTimeOffset OwnedAgainAt, DateTimeOffset CaughtUpAt);

    /// <summary>With separate instances: owners per partition now, ownership changes, and what the fleet and the
    /// scaler did.</summary>
    public static async Task PrintInstancesAsync(LocalPipeline pipeline, IAnsiConsole console, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(pipeline);
        ArgumentNullException.ThrowIfNull(console);
        if (pipeline.Fleet is not { } fleet)
        {
            return;
        }

        var status = await pipeline.GetFunctionsStatusAsync(cancellationToken);
        var table = new Table().Title("instances and partition owners at the end (owner changes while devhost watched)");
        table.AddColumn("function");
        table.AddColumn(new TableColumn("instances").RightAligned());
        table.AddColumn("owners per partition");
        foreach (var function in status.Functions)
        {
            table.AddRow(function.Name, fleet.Count(function.Name).ToString(CultureInfo.InvariantCulture),
                string.Join("  ", function.Partitions.Select(p => $"{p.PartitionId}:{p.Owner ?? "-"} ({p.OwnerChanges})")));
        }

        console.Write(table);
        foreach (var line in fleet.Events.Concat(pipeline.Scaler?.Decisions ?? []))
        {
            console.WriteLine(line);
        }
    }

    private static string Seconds(TimeSpan value) => value.TotalSeconds.ToString("0.###", CultureInfo.InvariantCulture) + "s";

    private static string N(long value) => value.ToString("N0", CultureInfo.InvariantCulture);

    private static string Ms(JsonElement element, string property) =>
        element.ValueKind == JsonValueKind.Object && element.TryGetProperty(property, out var value) && value.ValueKind == JsonValueKind.Number
            ? value.GetDouble().ToString("N0", CultureInfo.InvariantCulture)
            : "–";

    // verify --json prints the verdict object; anything before it (a warning) is skipped.
    private static string ExtractJsonObject(string text)
    {
        var start = text.IndexOf('{', StringComparison.Ordinal);
        var end = text.LastIndexOf('}');
        return start >= 0 && end > start ? text[start..(end + 1)] : throw new InvalidOperationException($"verify printed no JSON verdict: {text}");
    }
}
