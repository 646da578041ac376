namespace SensorPipeline.EndToEnd.Bench;

/// <summary>
/// <c>./pipeline bench e2e</c> (<see cref="BenchArguments"/>): the raw upsert ceiling and the chain's ceiling
/// (<see cref="ChainCeiling"/>), then latency at half and at three quarters of it (<see cref="Targets.Latency"/>). Each
/// phase gets a freshly started pipeline, so the store starts empty every time (its memory grows with every document it
/// holds).
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
        var settings = arguments.Ceiling;
        Console.WriteLine($"e2e bench ({layout.Configuration} build, {Environment.ProcessorCount} cores): handler Pipeline__WriteParallelism={settings.WriteParallelism}; logs under {run}");

        var chain = new ChainCeiling(settings, phase => StartAsync(layout, run, phase, settings, cancellationToken));
        var (raw, ceiling) = await chain.MeasureAsync(cancellationToken);

        // 3., 4.: the latency runs, each at its fraction of the chain's ceiling.
        var runs = new List<LatencyRun>();
        foreach (var (target, number) in Targets.Latency.Select((t, i) => (t, i + 3)))
        {
            var rate = Math.Floor(ceiling.DocumentsPerSecond * target.Fraction);
            await using var pipeline = await StartAsync(layout, run, $"{number}-{target.Slug}", settings, cancellationToken);
            await chain.WarmUpAsync(pipeline, cancellationToken);
            Console.WriteLine($"{number}. latency at {target.Label}: {rate:N0} readings/s for {arguments.Minutes:0.#} min …");
            var figures = await new ChainPhase(pipeline, $"{target.Slug} ceiling", rate, TimeSpan.FromMinutes(arguments.Minutes), null, settings.DevicesPerKind, settings.ReadingsPerEvent)
                .RunAsync(cancellationToken);
            runs.Add(new LatencyRun(target, rate, figures));
        }

        await AppendReportAsync(layout, Report.Markdown(arguments, given, raw, ceiling, runs), cancellationToken);
        return ExitCodes.Ok;
    }

    private static Task<LocalPipeline> StartAsync(RepoLayout layout, string run, string phase, CeilingSettings settings, CancellationToken cancellationToken) =>
        LocalPipeline.StartAsync(layout, new StackOptions { DataDirectory = Path.Combine(run, phase), Environment = settings.Environment() }, cancellationToken);

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
