using SensorPipeline.EndToEnd.Bench;

namespace SensorPipeline.Functions.Bench;

/// <summary><c>./pipeline bench backlog</c> (<see cref="BacklogArguments"/>): the largest invocations host.json allows,
/// POSTed to the handler; then the chain's ceiling (<see cref="ChainCeiling"/>) and a backlog drained through the local
/// stack, its catch-up judged against that ceiling (<see cref="DrainFigures"/>). Exit 1 when a reading is lost or
/// stored twice, 2 on bad arguments (<see cref="BenchRun"/>: 1 when the stack fails); a missed target exits 0.</summary>
internal static class BacklogCommand
{
    public static Command Command() => BacklogArguments.Command((arguments, token) => BenchRun.RunAsync("backlog", t => RunAsync(arguments, t), token));

    private static async Task<int> RunAsync(BacklogArguments arguments, CancellationToken cancellationToken)
    {
        if (arguments.Rounds > 0)
        {
            await using var emulator = await CosmosEmulatorProcess.StartAsync(cancellationToken);
            // The splitter sends its envelopes to the processor hubs: devhost serving the namespace only (no host.json).
            using var hubFiles = new TempDirectory("backlog-hubs-");
            await using var hubs = await DevHostProcess.StartAsync(new DevHostStart
            {
                AppRoot = hubFiles.Path, DataDirectory = Path.Combine(hubFiles.Path, "data"), HubsFile = RepoLayout.Current.EventHubsConfig,
            }, cancellationToken: cancellationToken);
            Console.WriteLine($"Largest invocations, real handler process (Release) → Cosmos DB emulator {emulator.Endpoint}, hubs {hubs.BaseAddress}, {Environment.ProcessorCount} cores:");
            await new BacklogBench(emulator, SensorPipeline.Clients.EventHubsEmulatorAccount.ConnectionString(hubs.BaseAddress.Port), arguments.Rounds, arguments.Events, arguments.HandlerDll).RunAsync();
            Console.WriteLine();
        }

        if (arguments.Readings == 0)
        {
            return 0;
        }

        // The ceiling first, as bench e2e measures it, each phase on a fresh stack with the drain's handler settings; then
        // the backlog on a fresh stack of its own, so the store holds only the backlog.
        var layout = RepoLayout.Discover();
        var run = BenchRun.RunFolder(layout, "backlog");
        Console.WriteLine($"The chain's ceiling ({arguments.Ceiling.DevicesPerKind}+{arguments.Ceiling.DevicesPerKind} devices, Pipeline__WriteParallelism {arguments.Ceiling.WriteParallelism}, Pipeline__MaxAge {arguments.MaxAge}; logs under {run}):");
        var (_, ceiling) = await new ChainCeiling(arguments.Ceiling, phase => StartAsync(layout, run, phase, arguments, cancellationToken)).MeasureAsync(cancellationToken);
        Console.WriteLine();

        await using var pipeline = await StartAsync(layout, run, "3-backlog", arguments, cancellationToken);
        Console.WriteLine($"Backlog drain: devhost {pipeline.DevHostUrl} · Cosmos DB emulator {pipeline.CosmosEndpoint} · logs {pipeline.Options.DataDirectory}/logs");
        var figures = await new DrainBench(pipeline, arguments, Console.Out).RunAsync(ceiling.DocumentsPerSecond, cancellationToken);
        Console.WriteLine();
        figures.Print(Console.Out);
        return figures.Passed ? ExitCodes.Ok : ExitCodes.Failed;
    }

    private static Task<LocalPipeline> StartAsync(RepoLayout layout, string run, string phase, BacklogArguments arguments, CancellationToken cancellationToken) =>
        LocalPipeline.StartAsync(layout, new StackOptions
        {
            DataDirectory = Path.Combine(run, phase), MaxAge = arguments.MaxAge, Environment = arguments.Ceiling.Environment(),
        }, cancellationToken);
}
