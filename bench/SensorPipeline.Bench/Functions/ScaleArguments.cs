namespace SensorPipeline.Functions.Bench;

/// <summary>
/// <c>./pipeline bench scale [--instances 1,2,4] [--readings 40000] [--cold-readings 4000] [--kill-readings 10000] [--readings-per-event 200]
/// [--devices 100] [--update-interval 2s] [--expiration 10s] [--package DIR]</c>: per instance count, that many instances
/// of each processor function started onto a backlog of <c>--cold-readings</c> (cold start), a backlog of
/// <c>--readings</c> drained by them once warm (throughput, CPU), then (two or more) one WeatherProcessor instance
/// killed while <c>--kill-readings</c> flow (unowned time, duplicates).
/// </summary>
internal sealed record ScaleArguments(IReadOnlyList<int> Instances, long Readings, long ColdReadings, long KillReadings, int ReadingsPerEvent, int Devices,
    TimeSpan UpdateInterval, TimeSpan Expiration, string Package)
{
    /// <summary>The Event Hubs processor's defaults (<c>EventProcessorOptions</c>), which host.json keeps.</summary>
    public static readonly (TimeSpan Update, TimeSpan Expiration) AzureDefaults = (TimeSpan.FromSeconds(30), TimeSpan.FromMinutes(2));

    /// <summary>The bench's command (<paramref name="defaultPackage"/>: <c>./pipeline package</c>'s folder); its action runs <paramref name="run"/>.</summary>
    public static Command Command(string defaultPackage, Func<ScaleArguments, CancellationToken, Task<int>> run)
    {
        var instances = Numbers.WholeList("--instances", "Instance counts per processor function, each run in turn.", [1, 2, 4], 1, 4);
        var readings = Numbers.WholeLong("--readings", "Readings of the backlog drained once warm", 40_000, 1_000, 10_000_000);
        var cold = Numbers.WholeLong("--cold-readings", "Readings of the backlog the instances start onto (cold start)", 4_000, 1, 10_000_000);
        var kill = Numbers.WholeLong("--kill-readings", "Readings sent while one instance is killed", 10_000, 0, 10_000_000);
        var perEvent = Numbers.Whole("--readings-per-event", "Readings per ingestion event", 200, 1, 10_000);
        var devices = Numbers.Whole("--devices", "Devices the readings spread over", 100, 2, 100_000);
        var update = Durations.Option("--update-interval", "The instances' load-balancing update interval.", TimeSpan.FromSeconds(2), minimum: TimeSpan.FromMilliseconds(1));
        var expiration = Durations.Option("--expiration", "The instances' partition ownership expiration (longer than --update-interval).", TimeSpan.FromSeconds(10), minimum: TimeSpan.FromMilliseconds(1));
        var package = new Option<DirectoryInfo>("--package")
        {
            Description = "The published function app (./pipeline package's folder).", HelpName = "DIR", DefaultValueFactory = _ => new DirectoryInfo(defaultPackage),
        };
        var command = new Command("scale", "1, 2, 4 instances per processor function: throughput, CPU per reading, cold start, rebalance.")
            .With(instances, readings, cold, kill, perEvent, devices, update, expiration, package);
        command.SetAction((parse, token) => parse.GetValue(expiration) <= parse.GetValue(update)
            ? Task.FromResult(CommandLineProgram.UsageError("bench",
                $"--expiration ({parse.GetValue(expiration)}) must be longer than --update-interval ({parse.GetValue(update)}), as the Event Hubs processor requires."))
            : run(new ScaleArguments(parse.GetValue(instances)!.Distinct().Order().ToList(), parse.GetValue(readings), parse.GetValue(cold), parse.GetValue(kill),
                parse.GetValue(perEvent), parse.GetValue(devices), parse.GetValue(update), parse.GetValue(expiration), parse.GetValue(package)!.FullName), token));
        return command;
    }

    /// <summary>The instances' ownership intervals (<c>devhost instance --set</c>).</summary>
    public IReadOnlyList<string> InstanceSettings =>
    [
        "FunctionsHost:LoadBalancingUpdateInterval=" + UpdateInterval.ToString("c", CultureInfo.InvariantCulture),
        "FunctionsHost:PartitionOwnershipExpirationInterval=" + Expiration.ToString("c", CultureInfo.InvariantCulture),
    ];
}
