using System.Globalization;
using SensorPipeline.Functions.Bench;

// dotnet run -c Release --project bench/SensorPipeline.Functions.Bench [-- readings devices parallelism cpu-iterations invocation-size]   (./pipeline bench functions)
// dotnet run -c Release --project bench/SensorPipeline.Functions.Bench -- backlog [rounds [events [handler.dll]]]   (./pipeline bench backlog)
// events: events per invocation (default host.json's 2; more runs the handler with a host.json copy allowing them);
// handler.dll: measure another build of the handler (e.g. an earlier commit's) with the same invocations.
if (args.Length > 0 && args[0] == "backlog")
{
    await using var emulator = await CosmosEmulatorProcess.StartAsync();
    Console.WriteLine($"Largest invocations, real handler process (Release) → Cosmos DB emulator {emulator.Endpoint}, {Environment.ProcessorCount} cores:");
    var rounds = args.Length > 1 ? int.Parse(args[1], CultureInfo.InvariantCulture) : 3;
    var events = args.Length > 2 ? int.Parse(args[2], CultureInfo.InvariantCulture) : BacklogBench.ShippedMaxEventBatchSize;
    await new BacklogBench(emulator, rounds, events, args.Length > 3 ? args[3] : null).RunAsync();
    return;
}

var readings = args.Length > 0 ? int.Parse(args[0], CultureInfo.InvariantCulture) : 20_000;
var devices = args.Length > 1 ? int.Parse(args[1], CultureInfo.InvariantCulture) : 100; // loadgen's default fleet: 50 + 50
var parallelism = args.Length > 2 ? int.Parse(args[2], CultureInfo.InvariantCulture) : 32;
var cpuIterations = args.Length > 3 ? int.Parse(args[3], CultureInfo.InvariantCulture) : 200;
var invocationSize = args.Length > 4 ? int.Parse(args[4], CultureInfo.InvariantCulture) : 500; // host.json's largest processor invocation
var root = RepoLayout.Current.Root;

Console.WriteLine($"Handler CPU per reading ({Environment.ProcessorCount} cores, no store):");
CpuBench.Run(cpuIterations);

await using var store = await CosmosEmulatorProcess.StartAsync();
Console.WriteLine($"Cosmos write path: {readings:N0} weather readings per contender over {devices} devices, point parallelism {parallelism}, Cosmos DB emulator {store.Endpoint}:");
await new WriteBench(root, store, readings, devices, parallelism, invocationSize).RunAsync();
