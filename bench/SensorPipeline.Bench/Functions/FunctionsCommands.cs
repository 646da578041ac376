namespace SensorPipeline.Functions.Bench;

/// <summary>
/// The handler's benches: <c>functions [readings devices parallelism cpu-iterations invocation-size]</c> (its CPU per
/// reading, then its Cosmos write path against a plain parallel upsert loop), <c>functions cpu [iterations]</c> (the CPU
/// only), <c>functions ranges</c> (<see cref="RangesBench"/>), and the ones that start the local stack:
/// <c>backlog</c>, <c>scale</c>, <c>affinity</c>.
/// </summary>
internal static class FunctionsCommands
{
    public static IEnumerable<Command> Commands() => [Functions(), BacklogCommand.Command(), ScaleCommand.Command(), AffinityCommand.Command()];

    private static Command Functions()
    {
        var readings = Numbers.WholeArgument("readings", "Weather readings per contender", 20_000, 1, 100_000_000);
        var devices = Numbers.WholeArgument("devices", "Devices (loadgen's default fleet: 50 + 50)", 100, 1, 1_000_000);
        var parallelism = Numbers.WholeArgument("parallelism", "Point writes in flight", 32, 1, 1024);
        var iterations = CpuIterations();
        var invocationSize = Numbers.WholeArgument("invocation-size", "Readings per invocation (host.json's largest processor invocation)", 500, 1, 100_000);
        var command = new Command("functions", "The handler's CPU per reading and its Cosmos write path (point, bulk) against the emulator.")
        {
            readings, devices, parallelism, iterations, invocationSize, Cpu(), Ranges(),
        };
        command.SetAction((parse, token) => BenchRun.RunAsync("functions", async cancellationToken =>
        {
            Console.WriteLine($"Handler CPU per reading ({Environment.ProcessorCount} cores, no store):");
            CpuBench.Run(parse.GetValue(iterations));
            await using var store = await CosmosEmulatorProcess.StartAsync(cancellationToken);
            Console.WriteLine($"Cosmos write path: {parse.GetValue(readings):N0} weather readings per contender over {parse.GetValue(devices)} devices, point parallelism {parse.GetValue(parallelism)}, Cosmos DB emulator {store.Endpoint}:");
            await new WriteBench(RepoLayout.Current.Root, store, parse.GetValue(readings), parse.GetValue(devices), parse.GetValue(parallelism), parse.GetValue(invocationSize)).RunAsync();
        }, token));
        return command;
    }

    /// <summary><c>functions cpu [iterations]</c>: the handler's CPU and allocations per reading only (no store), for
    /// comparing a change to the hot path against its parent.</summary>
    private static Command Cpu()
    {
        var iterations = CpuIterations();
        var command = new Command("cpu", "The handler's CPU and allocations per reading only (no store).") { iterations };
        command.SetAction((parse, token) => BenchRun.RunAsync("functions cpu", _ =>
        {
            Console.WriteLine($"Handler CPU per reading ({Environment.ProcessorCount} cores, no store):");
            CpuBench.Run(parse.GetValue(iterations));
            return Task.CompletedTask;
        }, token));
        return command;
    }

    /// <summary><c>functions ranges</c> (<see cref="RangesBench"/>): one processor instance's write path at one and at
    /// many partition key ranges, its devices routed by the splitter or picked independently of Cosmos DB's key space.</summary>
    private static Command Ranges() => RangesArguments.Command((arguments, token) =>
        BenchRun.RunAsync("functions ranges", _ => new RangesBench(RepoLayout.Current.Root, arguments).RunAsync(), token));

    private static Argument<int> CpuIterations() => Numbers.WholeArgument("cpu-iterations", "Measured iterations of each CPU case", 200, 1, 1_000_000);
}
