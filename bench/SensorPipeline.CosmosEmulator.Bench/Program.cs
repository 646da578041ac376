using System.Globalization;
using SensorPipeline.CommandLine;
using SensorPipeline.CosmosEmulator.Bench;

// The local Cosmos DB emulator beside the former npm stand-in, measured in one run on this machine through the .NET
// SDK (Gateway mode, as the handler runs locally). Each store runs as its own process; its CPU time and memory come
// from /proc. Other programs sharing the cores slow both: the load average is printed before and after.
return await CommandLineProgram.RunAsync("bench cosmos", BenchArguments.Command(RunAsync), args);

static async Task<int> RunAsync(BenchArguments settings, CancellationToken stop)
{
    var loadBefore = LoadAverage();
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
    Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
        $"machine: {Environment.ProcessorCount} cores; load average (1 min) {loadBefore} before, {LoadAverage()} after; .NET {Environment.Version}"));
    return ExitCodes.Ok;
}

static string LoadAverage() => File.ReadAllText("/proc/loadavg").Split(' ')[0];
