using System.Text;
using SensorPipeline.Core.Splitting;

namespace SensorPipeline.Functions.Bench;

/// <summary>
/// <c>./pipeline bench functions ranges [--ranges 827] [--partitions 32] [--owned 6] [--invocation 420] [--devices 100000]
/// [--rounds 8]</c>: what the splitter's routing does to one processor instance's Cosmos DB writes when the readings
/// container has many physical partition key ranges (827 is what <c>./pipeline plan --rate 100000</c> gives it). The
/// instance owns <c>owned</c> of a hub's <c>partitions</c> partitions (32 / 5 instances ≈ 6 in the plan) and runs one
/// invocation of <c>invocation</c> readings per owned partition at once (≈ 420 in the plan: 16 events per invocation),
/// through the handler's own write path hosted here, against two Cosmos DB emulators — one range, and <c>ranges</c>.
/// Its devices are either the ones the splitter's routing gives those partitions (<see cref="DevicePartitioner"/>: slices
/// of the effective partition key space) or as many picked independently of the key space (every device whose index
/// modulo <c>partitions</c> is below <c>owned</c>: what any hash unrelated to Cosmos DB's, as jump hashing of FNV-1a
/// was, gives). Prints CPU per reading and operations per bulk request (the emulator's ledger), rotating which goes first.
/// </summary>
internal sealed class RangesBench(string repoRoot, RangesArguments arguments)
{
    private const int Parallelism = 32;

    public async Task RunAsync()
    {
        var all = Enumerable.Range(0, arguments.Devices).Select(i => string.Create(CultureInfo.InvariantCulture, $"dev-{i:D6}")).ToArray();
        var sliced = all.Where(d => DevicePartitioner.PartitionOf(Encoding.UTF8.GetBytes(d), arguments.Partitions) < arguments.Owned).ToArray();
        var independent = all.Where((_, i) => i % arguments.Partitions < arguments.Owned).ToArray();
        Console.WriteLine($"Processor write path with many partition key ranges ({Environment.ProcessorCount} cores): one instance owning {arguments.Owned} of {arguments.Partitions} partitions, "
            + $"{arguments.Owned} concurrent invocations of {arguments.Invocation} readings, {arguments.Rounds} rounds; its devices: {sliced.Length:N0} by the splitter's routing, {independent.Length:N0} picked independently, of {arguments.Devices:N0}");
        await using var one = await CosmosEmulatorProcess.StartAsync(TempDirectory(), temporary: true, settings: ["Cosmos:PartitionKeyRanges=1"]);
        await using var many = await CosmosEmulatorProcess.StartAsync(TempDirectory(), temporary: true, settings: [$"Cosmos:PartitionKeyRanges={arguments.Ranges}"]);
        var bulkMinimum = new Options.PipelineOptions().BulkMinimumDocuments;
        var apps = new[] { await BenchHandler.StartAsync(repoRoot, one, Parallelism, bulkMinimum, "ranges"), await BenchHandler.StartAsync(repoRoot, many, Parallelism, bulkMinimum, "ranges") };
        var contenders = new List<Contender>();
        try
        {
            contenders.AddRange(new List<Contender>
            {
                new("1 range, devices picked independently", one, apps[0], independent, arguments),
                new("1 range, devices by the splitter's routing", one, apps[0], sliced, arguments),
                new($"{arguments.Ranges} ranges, devices picked independently", many, apps[1], independent, arguments),
                new($"{arguments.Ranges} ranges, devices by the splitter's routing", many, apps[1], sliced, arguments),
            });
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

            Console.WriteLine($"  CPU: this process (it hosts the handler; the emulators are their own processes), gross and net of its idle {idle * 1000:F0} ms per second; bulk: the emulator's ledger on readings");
            foreach (var contender in contenders)
            {
                contender.Print(contenders[0], idle);
            }

            // The splitter's routing is what the product deploys: its one-range and many-range figures are the plan's.
            var file = await RangesFigures.WriteAsync(repoRoot, arguments, contenders[1].Tally, contenders[3].Tally, idle);
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

    private static string TempDirectory() => Path.Combine(Path.GetTempPath(), "sensorpipeline-cosmos", Guid.NewGuid().ToString("N"));

    /// <summary>One setting: its emulator, its handler, its devices, its figures.</summary>
    private sealed class Contender(string name, CosmosEmulatorProcess store, WebApplication app, string[] devices, RangesArguments arguments) : IDisposable
    {
        private readonly Tally _tally = new(name);

        public Tally Tally => _tally;
        private readonly Batches _batches = new(devices.Length, arguments.Invocation, devices);
        private long _requests;
        private long _operations;

        public async Task RunAsync(bool measured)
        {
            var writer = BenchHandler.Weather(app);
            var invocations = _batches.Next(arguments.Owned);
            var before = await ReadingsBulkAsync();
            Task Write() => Task.WhenAll(invocations.Select(i => writer.WriteAsync(i.Result, i.Now, CancellationToken.None)));
            if (!measured)
            {
                await Write();
                return;
            }

            await _tally.MeasureAsync(invocations, Write);
            var after = await ReadingsBulkAsync();
            _requests += after.BulkRequests - before.BulkRequests;
            _operations += after.BulkOperations - before.BulkOperations;
        }

        public void Print(Contender baseline, double idle)
        {
            _tally.Print(baseline._tally, idle);
            Console.WriteLine($"  {"",-52} {_requests:N0} bulk requests to readings, {_operations / (double)Math.Max(1, _requests):F1} operations each");
        }

        public void Dispose() => _batches.Dispose();

        private async Task<ContainerRequests> ReadingsBulkAsync() =>
            (await EmulatorCharges.ReadRequestsAsync(store.Endpoint, CancellationToken.None)).Single(c => c.Container == "readings");
    }
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
