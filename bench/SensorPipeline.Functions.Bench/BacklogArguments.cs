namespace SensorPipeline.Functions.Bench;

/// <summary>
/// <c>./pipeline bench backlog [--readings 1000000] [--readings-per-event 8000] [--devices 100] [--max-age 1h]
/// [--rounds 3] [--events 2] [--handler DLL]</c>: the largest invocations POSTed to the handler (<c>--rounds</c> each;
/// 0 skips them), then a backlog of <c>--readings</c> drained through the local stack (0 skips it).
/// </summary>
internal sealed record BacklogArguments(long Readings, int ReadingsPerEvent, int Devices, TimeSpan MaxAge, int Rounds, int Events, string? HandlerDll)
{
    public const string Usage = "usage: bench backlog [--readings 1000000] [--readings-per-event 8000] [--devices 100] [--max-age 1h] [--rounds 3] [--events 2] [--handler DLL]";

    /// <summary>~1 MB ingestion events: loadgen's readings average ~120 bytes (the weather and seismic kinds alternate),
    /// so 8,000 of them make an event of ~0.96 MB, under Event Hubs' 1 MB with room for a reading's size to vary.</summary>
    public const int DefaultReadingsPerEvent = 8_000;

    public static BacklogArguments Parse(IReadOnlyList<string> args)
    {
        ArgumentNullException.ThrowIfNull(args);
        long readings = 1_000_000;
        int perEvent = DefaultReadingsPerEvent, devices = 100, rounds = 3, events = BacklogBench.ShippedMaxEventBatchSize;
        var maxAge = TimeSpan.FromHours(1);
        string? handler = null;
        for (var i = 0; i < args.Count; i += 2)
        {
            var option = args[i];
            var value = i + 1 < args.Count ? args[i + 1] : throw new ArgumentException($"{option} needs a value. {Usage}");
            switch (option)
            {
                case "--readings": readings = (long)Number(option, value, 0, 100_000_000); break;
                case "--readings-per-event": perEvent = (int)Number(option, value, 1, 10_000); break;
                case "--devices": devices = (int)Number(option, value, 2, 100_000); break;
                case "--max-age": maxAge = Duration(option, value); break;
                case "--rounds": rounds = (int)Number(option, value, 0, 1_000); break;
                case "--events": events = (int)Number(option, value, 1, 1_000); break;
                case "--handler": handler = Path.GetFullPath(value); break;
                default: throw new ArgumentException($"unknown option {option}. {Usage}");
            }
        }

        if (readings == 0 && rounds == 0)
        {
            throw new ArgumentException($"--readings 0 and --rounds 0 leave nothing to measure. {Usage}");
        }

        return new BacklogArguments(readings, perEvent, devices, maxAge, rounds, events, handler);
    }

    /// <summary>A duration in the shared syntax (<see cref="SensorPipeline.CommandLine.Durations"/>), or an error naming the option.</summary>
    internal static TimeSpan Duration(string option, string text) =>
        SensorPipeline.CommandLine.Durations.TryParse(text, out var value) && value > TimeSpan.Zero
            ? value
            : throw new ArgumentException($"{option}: '{text}' is not a duration ({SensorPipeline.CommandLine.Durations.Syntax})");

    /// <summary>A whole number from <paramref name="min"/> to <paramref name="max"/>, or an error naming the option.</summary>
    internal static double Number(string option, string text, double min, double max) =>
        double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var value) && value >= min && value <= max && value == Math.Floor(value)
            ? value
            : throw new ArgumentException($"{option}: '{text}' must be a whole number from {min:N0} to {max:N0}");
}
