namespace SensorPipeline.CosmosEmulator.Bench;

/// <summary>
/// <c>./pipeline bench cosmos</c>: the local Cosmos DB emulator beside the former npm stand-in, measured in one run on
/// this machine through the .NET SDK (Gateway mode, as the handler runs locally). Each store runs as its own process;
/// its CPU time and memory come from /proc.
/// </summary>
internal static class CosmosBench
{
    public static Command Command() => BenchArguments.Command((settings, token) => BenchRun.RunAsync("cosmos", t => RunAsync(settings, t), token));

    private static async Task<int> RunAsync(BenchArguments settings, CancellationToken stop)
    {
        var figures = new List<StoreFigures>();
        foreach (var name in settings.Stores)
        {
            await using var store = name == Store.Emulator
                ? await Store.StartEmulatorAsync(stop)
                : await Store.StartStandInAsync(RepoLayout.Current, stop);
            Console.Error.WriteLine($"[bench] {store.Description} at {store.Endpoint} (pid {store.ProcessId})");
            figures.Add(await new StoreBench(store, settings).RunAsync(stop));
        }

        Report.Print(Console.Out, figures, settings);
        return ExitCodes.Ok;
    }
}
