namespace SensorPipeline.EndToEnd.Bench;

/// <summary>
/// <c>./pipeline bench e2e [--minutes 5] [--quick] [--write-parallelism 64] [--raw-parallelism 64] [--raw-seconds 15]
/// [--ceiling-seconds 30] [--ceiling-rate N] [--ceiling-readings 400000] [--devices 100] [--readings-per-event N]</c>. <c>--quick</c> is for iterating: 1 minute at
/// half the ceiling, a 5 s raw loop and a 15 s ceiling run (later options still override it); its latency verdict is
/// not the 5-minute one.
/// </summary>
internal sealed record BenchArguments(double Minutes, int WriteParallelism, int RawParallelism, TimeSpan RawDuration, TimeSpan CeilingDuration, int DevicesPerKind)
{
    public const string Usage = "usage: bench e2e [--minutes 5] [--quick] [--write-parallelism 64] [--raw-parallelism 64] [--raw-seconds 15] [--ceiling-seconds 30] [--ceiling-rate N] [--ceiling-readings 400000] [--devices 100] [--readings-per-event N]";

    /// <summary>The minutes the latency target is stated for.</summary>
    public const double TargetMinutes = 5;

    /// <summary>The rate loadgen offers in the ceiling phase (<c>--ceiling-rate</c>); null: <see cref="CeilingOverRaw"/> × the
    /// raw loop's documents/s.</summary>
    public double? CeilingRate { get; init; }

    /// <summary>At most this many readings in the ceiling phase (<c>--ceiling-readings</c>, default 400,000, 1,000 to
    /// 2,000,000): the stand-in's memory grows with every document it holds.</summary>
    public long CeilingReadings { get; init; } = 400_000;

    /// <summary>The ceiling phase offers this many times the raw loop's documents/s unless <c>--ceiling-rate</c> says
    /// otherwise: the chain writes in bulk and a device state per ~10 readings, so it carries several times what 64
    /// point upserts do, and an offer below what it carries would measure the offer, not the chain.</summary>
    public const double CeilingOverRaw = 8;

    /// <summary>loadgen's <c>--readings-per-event</c>; null: loadgen's own default.</summary>
    public int? ReadingsPerEvent { get; init; }

    public static BenchArguments Parse(IReadOnlyList<string> args)
    {
        var minutes = TargetMinutes;
        int writeParallelism = 64, rawParallelism = 64, devices = 100;
        int? readingsPerEvent = null;
        double? ceilingRate = null;
        long ceilingReadings = 400_000;
        double rawSeconds = 15, ceilingSeconds = 30;
        for (var i = 0; i < args.Count; i++)
        {
            if (args[i] == "--quick")
            {
                (minutes, rawSeconds, ceilingSeconds) = (1, 5, 15);
                continue;
            }

            var value = i + 1 < args.Count ? args[++i] : throw new ArgumentException($"{args[i]} needs a value. {Usage}");
            switch (args[i - 1])
            {
                case "--minutes": minutes = Number(args[i - 1], value, 0.1, 60); break;
                case "--write-parallelism": writeParallelism = (int)Number(args[i - 1], value, 1, 1024); break;
                case "--raw-parallelism": rawParallelism = (int)Number(args[i - 1], value, 1, 1024); break;
                case "--raw-seconds": rawSeconds = Number(args[i - 1], value, 1, 600); break;
                case "--ceiling-seconds": ceilingSeconds = Number(args[i - 1], value, 1, 600); break;
                case "--ceiling-rate": ceilingRate = Number(args[i - 1], value, 100, 200_000); break;
                case "--ceiling-readings": ceilingReadings = (long)Number(args[i - 1], value, 1_000, 2_000_000); break;
                case "--devices": devices = (int)Number(args[i - 1], value, 1, 10_000); break;
                case "--readings-per-event": readingsPerEvent = (int)Number(args[i - 1], value, 1, 10_000); break;
                default: throw new ArgumentException($"unknown option {args[i - 1]}. {Usage}");
            }
        }

        return new BenchArguments(minutes, writeParallelism, rawParallelism, TimeSpan.FromSeconds(rawSeconds), TimeSpan.FromSeconds(ceilingSeconds), devices)
        {
            ReadingsPerEvent = readingsPerEvent,
            CeilingRate = ceilingRate,
            CeilingReadings = ceilingReadings,
        };
    }

    private static double Number(string option, string text, double min, double max) =>
        double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var value) && value >= min && value <= max
            ? value
            : throw new ArgumentException($"{option}: '{text}' must be a number from {min} to {max}");
}
