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
    public const string Usage = "usage: bench scale [--instances 1,2,4] [--readings 40000] [--cold-readings 4000] [--kill-readings 10000] [--readings-per-event 200] [--devices 100] [--update-interval 2s] [--expiration 10s] [--package DIR]";

    /// <summary>The Event Hubs processor's defaults (<c>EventProcessorOptions</c>), which host.json keeps.</summary>
    public static readonly (TimeSpan Update, TimeSpan Expiration) AzureDefaults = (TimeSpan.FromSeconds(30), TimeSpan.FromMinutes(2));

    public static ScaleArguments Parse(IReadOnlyList<string> args, string defaultPackage)
    {
        ArgumentNullException.ThrowIfNull(args);
        IReadOnlyList<int> instances = [1, 2, 4];
        long readings = 40_000, coldReadings = 4_000, killReadings = 10_000;
        int perEvent = 200, devices = 100;
        TimeSpan update = TimeSpan.FromSeconds(2), expiration = TimeSpan.FromSeconds(10);
        var package = defaultPackage;
        for (var i = 0; i < args.Count; i += 2)
        {
            var option = args[i];
            var value = i + 1 < args.Count ? args[i + 1] : throw new ArgumentException($"{option} needs a value. {Usage}");
            switch (option)
            {
                case "--instances":
                    instances = value.Split(',', StringSplitOptions.TrimEntries).Select(v => (int)Number(option, v, 1, 4)).Distinct().Order().ToList();
                    break;
                case "--readings": readings = (long)Number(option, value, 1_000, 10_000_000); break;
                case "--cold-readings": coldReadings = (long)Number(option, value, 1, 10_000_000); break;
                case "--kill-readings": killReadings = (long)Number(option, value, 0, 10_000_000); break;
                case "--readings-per-event": perEvent = (int)Number(option, value, 1, 10_000); break;
                case "--devices": devices = (int)Number(option, value, 2, 100_000); break;
                case "--update-interval": update = BacklogArguments.Duration(option, value); break;
                case "--expiration": expiration = BacklogArguments.Duration(option, value); break;
                case "--package": package = Path.GetFullPath(value); break;
                default: throw new ArgumentException($"unknown option {option}. {Usage}");
            }
        }

        if (expiration <= update)
        {
            throw new ArgumentException($"--expiration ({expiration}) must be longer than --update-interval ({update}), as the Event Hubs processor requires. {Usage}");
        }

        return new ScaleArguments(instances, readings, coldReadings, killReadings, perEvent, devices, update, expiration, package);
    }

    /// <summary>The instances' ownership intervals (<c>devhost instance --set</c>).</summary>
    public IReadOnlyList<string> InstanceSettings =>
    [
        "FunctionsHost:LoadBalancingUpdateInterval=" + UpdateInterval.ToString("c", CultureInfo.InvariantCulture),
        "FunctionsHost:PartitionOwnershipExpirationInterval=" + Expiration.ToString("c", CultureInfo.InvariantCulture),
    ];

    private static double Number(string option, string text, double min, double max) => BacklogArguments.Number(option, text, min, max);
}
