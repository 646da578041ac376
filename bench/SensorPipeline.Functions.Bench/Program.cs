using SensorPipeline.Functions.Bench;

// dotnet run -c Release --project bench/SensorPipeline.Functions.Bench [-- readings devices parallelism cpu-iterations invocation-size]   (./pipeline bench functions)
// ./pipeline bench backlog [--readings 1000000] [--rounds 3] [--events 2] [--handler DLL] …   (BacklogArguments.cs):
// the largest invocations POSTed to the handler, then a backlog drained through the local Release stack.
if (args.Length > 0 && args[0] == "backlog")
{
    Environment.ExitCode = await BacklogCommand.RunAsync(args[1..]);
    return;
}

// ./pipeline bench scale [--instances 1,2,4] … (ScaleArguments.cs): 1, 2 and 4 instances per processor function as
// separate processes running the published handler: throughput, CPU per reading, unowned time and duplicates per
// rebalance, cold start.
if (args.Length > 0 && args[0] == "scale")
{
    Environment.ExitCode = await ScaleCommand.RunAsync(args[1..]);
    return;
}

// dotnet run -c Release --project bench/SensorPipeline.Functions.Bench -- cpu [iterations]: the handler's CPU and
// allocations per reading only (no store), for comparing a change to the hot path against its parent.
if (args.Length > 0 && args[0] == "cpu")
{
    Console.WriteLine($"Handler CPU per reading ({Environment.ProcessorCount} cores, no store):");
    CpuBench.Run(args.Length > 1 ? int.Parse(args[1], CultureInfo.InvariantCulture) : 200);
    return;
}

// ./pipeline bench affinity [readings] [instances] [app-root] (AffinityCommand.cs): on how many processor
// partitions and instances each device's readings land.
if (args.Length > 0 && args[0] == "affinity")
{
    Environment.ExitCode = await AffinityCommand.RunAsync(args[1..]);
    return;
}

// ./pipeline bench functions ranges [--ranges 827] [--partitions 32] [--owned 6] … (RangesBench.cs): one processor
// instance's write path at one and at many partition key ranges, its devices routed by the splitter or picked
// independently of Cosmos DB's key space: CPU per reading and operations per bulk request.
if (args.Length > 0 && args[0] == "ranges")
{
    await new RangesBench(RepoLayout.Current.Root, RangesArguments.Parse(args[1..])).RunAsync();
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
