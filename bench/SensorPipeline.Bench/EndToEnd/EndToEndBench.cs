
namespace SensorPipeline.EndToEnd.Bench;

/// <summary>
/// <c>./pipeline bench e2e</c> (<see cref="BenchArguments"/>): the raw upsert ceiling, the chain's ceiling, latency at
/// half of it. Each phase gets a freshly started pipeline, so the store starts empty every time (its memory grows with
/// every document it holds).
/// </summary>
internal static class EndToEndBench
{
    public static IEnumerable<Command> Commands() =>
    [
        BenchArguments.Command((arguments, given, token) => BenchRun.RunAsync("e2e", t => RunAsync(arguments, given, t), token)),
        CostBench.Command(),
    ];

    private static async Task<int> RunAsync(BenchArguments arguments, IReadOnlyList<string> given, CancellationToken cancellationToken)
    {
        var layout = RepoLayout.Discover();
        var run = BenchRun.RunFolder(layout, "e2e");
        var environment = new Dictionary<string, string>
        {
            ["Pipeline__WriteParallelism"] = arguments.WriteParallelism.ToString(CultureInfo.InvariantCulture),
        };
        Console.WriteLine($"e2e bench ({layout.Configuration} build, {Environment.ProcessorCount} cores): handler Pipeline__WriteParallelism={arguments.WriteParallelism}; logs under {run}");

        // 1. The stand-in's raw ceiling. At most MaxDocuments: its memory and query cost grow with the container.
        const long MaxDocuments = 80_000;
        PhaseFigures raw;
        await using (var pipeline = await StartAsync("1-raw"))
        {
            Console.WriteLine($"1. raw upsert loop: {arguments.RawParallelism} concurrent upserts for {arguments.RawDuration.TotalSeconds:N0} s …");
            raw = await new RawUpsertPhase(pipeline, arguments.RawParallelism, arguments.RawDuration, MaxDocuments).RunAsync(cancellationToken);
        }

        Console.WriteLine($"   {raw.DocumentsPerSecond:N0} documents/s");

        // 2. The chain's ceiling: loadgen offering more than the chain carries, so a backlog builds and the chain runs flat
        // out, then drain; at most CeilingReadings, as the stand-in's memory grows with what it holds.
        PhaseFigures ceiling;
        var over = Math.Ceiling(arguments.CeilingRate ?? raw.DocumentsPerSecond * BenchArguments.CeilingOverRaw);
        var offered = arguments.CeilingRate is null ? $"{BenchArguments.CeilingOverRaw:0.#}× raw" : "--ceiling-rate";
        await using (var pipeline = await StartAsync("2-ceiling"))
        {
            await WarmUpAsync(pipeline);
            Console.WriteLine($"2. chain ceiling: loadgen at {over:N0} readings/s ({offered}) for {arguments.CeilingDuration.TotalSeconds:N0} s, at most {arguments.CeilingReadings:N0}, then drain …");
            ceiling = await new ChainPhase(pipeline, "ceiling", over, arguments.CeilingDuration, arguments.CeilingReadings, arguments.DevicesPerKind, arguments.ReadingsPerEvent).RunAsync(cancellationToken);
        }

        Console.WriteLine($"   {ceiling.DocumentsPerSecond:N0} documents/s written, {ceiling.ReadingsPerSecond:N0} readings/s sent");

        // 3. Half the chain's ceiling for the latency run.
        var half = Math.Floor(ceiling.DocumentsPerSecond / 2);
        PhaseFigures latency;
        await using (var pipeline = await StartAsync("3-half"))
        {
            await WarmUpAsync(pipeline);
            Console.WriteLine($"3. latency: {half:N0} readings/s for {arguments.Minutes:0.#} min …");
            latency = await new ChainPhase(pipeline, "half ceiling", half, TimeSpan.FromMinutes(arguments.Minutes), null, arguments.DevicesPerKind, arguments.ReadingsPerEvent).RunAsync(cancellationToken);
        }

        await AppendReportAsync(layout, Report.Markdown(arguments, given, raw, ceiling, latency, half), cancellationToken);
        return ExitCodes.Ok;

        // A fresh stack's first invocations pay for JIT and connection set-up: a short load on other devices first, so the
        // measured phases see the steady state (as a long-running Function App would), not the start.
        async Task WarmUpAsync(LocalPipeline pipeline)
        {
            Console.WriteLine("   warm-up: 1,000 readings/s for 5 s on other devices …");
            await new ChainPhase(pipeline, "warm-up", 1000, TimeSpan.FromSeconds(5), null, arguments.DevicesPerKind, arguments.ReadingsPerEvent, "warm").RunAsync(cancellationToken);
        }

        Task<LocalPipeline> StartAsync(string phase) =>
            LocalPipeline.StartAsync(layout, new StackOptions { DataDirectory = Path.Combine(run, phase), Environment = environment }, cancellationToken);
    }

    /// <summary>Prints the report and appends it to <c>.pipeline/bench/e2e.md</c>.</summary>
    private static async Task AppendReportAsync(RepoLayout layout, string report, CancellationToken cancellationToken)
    {
        Console.WriteLine();
        Console.WriteLine(report);
        var file = Path.Combine(layout.Root, ".pipeline", "bench", "e2e.md");
        await File.AppendAllTextAsync(file, report + Environment.NewLine, cancellationToken);
        Console.WriteLine($"(appended to {file})");
    }
}
