using System.Globalization;
using SensorPipeline.CosmosEmulator.Bench;

// The local Cosmos DB emulator beside the former npm stand-in, measured in one run on this machine through the .NET
// SDK (Gateway mode, as the handler runs locally). Each store runs as its own process; its CPU time and memory come
// from /proc. Other programs sharing the cores slow both: the load average is printed before and after.
BenchArguments settings;
try
{
    settings = BenchArguments.Parse(args);
}
catch (ArgumentException e)
{
    Console.Error.WriteLine(e.Message);
    return 2;
}

using var stop = new CancellationTokenSource();
Console.CancelKeyPress += (_, e) =>
{
    e.Cancel = true;
    stop.Cancel();
};

var loadBefore = LoadAverage();
var figures = new List<StoreFigures>();
foreach (var name in settings.Stores)
{
    await using var store = name == Store.Emulator
        ? await Store.StartEmulatorAsync(stop.Token)
        : await Store.StartStandInAsync(RepoLayout.Current, stop.Token);
    Console.Error.WriteLine($"[bench] {store.Description} at {store.Endpoint} (pid {store.ProcessId})");
    figures.Add(await new StoreBench(store, settings).RunAsync(stop.Token));
}

Report.Print(Console.Out, figures, settings);
Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
    $"machine: {Environment.ProcessorCount} cores; load average (1 min) {loadBefore} before, {LoadAverage()} after; .NET {Environment.Version}"));
return 0;

static string LoadAverage() => File.ReadAllText("/proc/loadavg").Split(' ')[0];
