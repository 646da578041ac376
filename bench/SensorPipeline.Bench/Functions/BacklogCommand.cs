namespace SensorPipeline.Functions.Bench;

/// <summary><c>./pipeline bench backlog</c> (<see cref="BacklogArguments"/>): the largest invocations host.json allows,
/// POSTed to the handler, then a backlog drained through the local stack. Exit 1 when verify finds a reading missing or
/// stored twice, 2 on bad arguments (<see cref="BenchRun"/>: 1 when the stack fails).</summary>
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

        var layout = RepoLayout.Discover();
        var data = BenchRun.RunFolder(layout, "backlog");
        await using var pipeline = await LocalPipeline.StartAsync(layout, new StackOptions { DataDirectory = data, MaxAge = arguments.MaxAge }, cancellationToken);
        Console.WriteLine($"Backlog drain: devhost {pipeline.DevHostUrl} · Cosmos DB emulator {pipeline.CosmosEndpoint} · Pipeline__MaxAge {arguments.MaxAge} · logs {data}/logs");
        var figures = await new DrainBench(pipeline, arguments, Console.Out).RunAsync(cancellationToken);
        Console.WriteLine();
        figures.Print(Console.Out);
        return figures.Passed ? ExitCodes.Ok : ExitCodes.Failed;
    }
}
