using System.Text;
using SensorPipeline.Core.Splitting;

namespace SensorPipeline.Functions.Bench;

/// <summary>
/// <c>./pipeline bench functions ranges [--ranges 827] [--partitions 32] [--owned 6] [--invocation 420] [--devices 100000]
/// [--rounds 8]</c>: what the splitter's routing does to one processor instance's Cosmos DB writes when the readings
/// container has many physical partition key ranges (827 is what <c>./pipeline plan --rate 100000</c> gave it). The
/// instance owns <c>owned</c> of a hub's <c>partitions</c> partitions (32 / 5 instances ≈ 6 in the plan) and runs one
/// invocation of <c>invocation</c> readings per owned partition at once, each holding that partition's devices only (as
/// the splitter routes them), through the handler's own write path hosted here, against two Cosmos DB emulators — one
/// range, and <c>ranges</c>. Its devices are either the ones the splitter's routing gives those partitions
/// (<see cref="DevicePartitioner"/>: slices of the effective partition key space) or as many picked independently of the
/// key space (partition = device index modulo <c>partitions</c>: what any hash unrelated to Cosmos DB's, as jump hashing
/// of FNV-1a was, gives). Prints CPU per reading and operations per bulk request (the emulator's ledger) per round,
/// rotating which contender goes first, as median and spread, and the targets met or missed beside the one-range
/// baseline of the same run (<see cref="RangesReport"/>).
/// </summary>
internal sealed class RangesBench(string repoRoot, RangesArguments arguments)
{
    private const int Parallelism = 32;

    public async Task RunAsync()
    {
        var all = Enumerable.Range(0, arguments.Devices).Select(i => string.Create(CultureInfo.InvariantCulture, $"dev-{i:D6}")).ToArray();
        var sliced = Owned(all, d => DevicePartitioner.PartitionOf(Encoding.UTF8.GetBytes(d), arguments.Partitions));
        var independent = Owned(all, d => int.Parse(d.AsSpan(4), CultureInfo.InvariantCulture) % arguments.Partitions);
        Console.WriteLine($"Processor write path with many partition key ranges ({Environment.ProcessorCount} cores): one instance owning {arguments.Owned} of {arguments.Partitions} partitions, "
            + $"{arguments.Owned} concurrent invocations of {arguments.Invocation} readings (one per owned partition, its devices only), {arguments.Rounds} rounds; its devices: "
            + $"{sliced.Sum(p => p.Length):N0} by the splitter's routing, {independent.Sum(p => p.Length):N0} picked independently, of {arguments.Devices:N0}");
        await using var one = await CosmosEmulatorProcess.StartAsync(TempDirectory(), temporary: true, settings: ["Cosmos:PartitionKeyRanges=1"]);
        await using var many = await CosmosEmulatorProcess.StartAsync(TempDirectory(), temporary: true, settings: [$"Cosmos:PartitionKeyRanges={arguments.Ranges}"]);
        var bulkMinimum = new Options.PipelineOptions().BulkMinimumDocuments;
        var apps = new[] { await BenchHandler.StartAsync(repoRoot, one, Parallelism, bulkMinimum, "ranges"), await BenchHandler.StartAsync(repoRoot, many, Parallelism, bulkMinimum, "ranges") };
        var contenders = new List<RangesContender>();
        try
        {
            contenders.AddRange(
            [
                new("1 range, devices picked independently", one, apps[0], independent, arguments.Invocation),
                new("1 range, devices by the splitter's routing", one, apps[0], sliced, arguments.Invocation),
                new($"{arguments.Ranges} ranges, devices picked independently", many, apps[1], independent, arguments.Invocation),
                new($"{arguments.Ranges} ranges, devices by the splitter's routing", many, apps[1], sliced, arguments.Invocation),
            ]);
            foreach (var contender in contenders)
            {
                await contender.RunAsync(measured: false); // jitted, connected, the SDK's range caches filled
            }

            var idle = await Tally.IdleCpuPerSecondAsync(TimeSpan.FromSeconds(5));
            for (var round = 0; round < arguments.Rounds; round++)
            {
                for (var c = 0; c < contenders.Count; c++)
                {
                    await contenders[(c + round) % contenders.Count].RunAsync(measured: true);
                }
            }

            // The splitter's routing is what the product deploys: its one-range and many-range figures are the plan's.
            var report = new RangesReport(contenders, contenders[1], contenders[3], idle);
            report.Print();
            var file = await RangesFigures.WriteAsync(repoRoot, arguments, report);
            Console.WriteLine($"  written to {file}; ./pipeline plan reads the processors' CPU per reading from it");
        }
        finally
        {
            contenders.ForEach(c => c.Dispose());
            foreach (var app in apps)
            {
                await app.StopAsync(); // a graceful stop writes the pending device states; disposing alone cancels them
                await app.DisposeAsync();
            }
        }
    }

    /// <summary>The devices of each owned partition (0 to owned − 1), by <paramref name="partitionOf"/>.</summary>
    private string[][] Owned(string[] devices, Func<string, int> partitionOf)
    {
        var byPartition = devices.GroupBy(partitionOf).Where(g => g.Key < arguments.Owned).ToDictionary(g => g.Key, g => g.ToArray());
        return [.. Enumerable.Range(0, arguments.Owned).Select(p => byPartition.GetValueOrDefault(p, []))];
    }

    private static string TempDirectory() => Path.Combine(Path.GetTempPath(), "sensorpipeline-cosmos", Guid.NewGuid().ToString("N"));
}

/// <summary>The options of <see cref="RangesBench"/>.</summary>
internal sealed record RangesArguments(int Ranges, int Partitions, int Owned, int Invocation, int Devices, int Rounds)
{
    /// <summary>The bench's command; its action runs <paramref name="run"/>.</summary>
    public static Command Command(Func<RangesArguments, CancellationToken, Task<int>> run)
    {
        var ranges = Numbers.Whole("--ranges", "Partition key ranges of the many-range emulator (827: ./pipeline plan --rate 100000)", 827, 1, 1024);
        var partitions = Numbers.Whole("--partitions", "Partitions of the processor hub", 32, 1, 1024);
        var owned = Numbers.Whole("--owned", "Partitions the one instance owns (at most --partitions)", 6, 1, 1024);
        var invocation = Numbers.Whole("--invocation", "Readings per invocation", 420, 1, 100_000);
        var devices = Numbers.Whole("--devices", "Devices to pick from", 100_000, 1, 10_000_000);
        var rounds = Numbers.Whole("--rounds", "Measured rounds of every contender", 8, 1, 10_000);
        var command = new Command("ranges", "One processor instance's write path at one and at many partition key ranges.")
            .With(ranges, partitions, owned, invocation, devices, rounds);
        command.SetAction((parse, token) => parse.GetValue(owned) > parse.GetValue(partitions)
            ? Task.FromResult(CommandLineProgram.UsageError("bench", $"--owned: {parse.GetValue(owned)} is more than --partitions ({parse.GetValue(partitions)})."))
            : run(new RangesArguments(parse.GetValue(ranges), parse.GetValue(partitions), parse.GetValue(owned), parse.GetValue(invocation), parse.GetValue(devices),
                parse.GetValue(rounds)), token));
        return command;
    }
}
