namespace SensorPipeline.EndToEnd.Bench;

/// <summary>
/// <c>./pipeline bench e2e [--minutes 5] [--quick] [--write-parallelism 64] [--raw-parallelism 64] [--raw-seconds 15]
/// [--ceiling-seconds 30] [--ceiling-rate N] [--ceiling-readings 400000] [--devices 100] [--readings-per-event N]</c>. <c>--quick</c> is for iterating: 1 minute at
/// half the ceiling, a 5 s raw loop and a 15 s ceiling run (an option given beside it still wins); its latency verdict is
/// not the 5-minute one.
/// </summary>
internal sealed record BenchArguments(double Minutes, int WriteParallelism, int RawParallelism, TimeSpan RawDuration, TimeSpan CeilingDuration, int DevicesPerKind)
{
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

    /// <summary>The bench's command; its action runs <paramref name="run"/> with the arguments and the command line as given.</summary>
    public static Command Command(Func<BenchArguments, IReadOnlyList<string>, CancellationToken, Task<int>> run)
    {
        var quick = new Option<bool>("--quick") { Description = "For iterating: 1 minute at half the ceiling, a 5 s raw loop, a 15 s ceiling run (options given still win)." };
        var minutes = Numbers.Optional("--minutes", $"Minutes of the latency run at half the ceiling (default {TargetMinutes})", 0.1, 60);
        var writeParallelism = Numbers.Whole("--write-parallelism", "The handler's Pipeline__WriteParallelism", 64, 1, 1024);
        var rawParallelism = Numbers.Whole("--raw-parallelism", "Concurrent upserts of the raw loop", 64, 1, 1024);
        var rawSeconds = Numbers.Optional("--raw-seconds", "Seconds of the raw upsert loop (default 15)", 1, 600);
        var ceilingSeconds = Numbers.Optional("--ceiling-seconds", "Seconds of the ceiling run (default 30)", 1, 600);
        var ceilingRate = Numbers.Optional("--ceiling-rate", $"Readings/s loadgen offers in the ceiling run (default {CeilingOverRaw}× the raw loop's documents/s)", 100, 200_000);
        var ceilingReadings = Numbers.WholeLong("--ceiling-readings", "At most this many readings in the ceiling run", 400_000, 1_000, 2_000_000);
        var devices = Numbers.Whole("--devices", "Devices per kind", 100, 1, 10_000);
        var readingsPerEvent = Numbers.OptionalWhole("--readings-per-event", "loadgen's --readings-per-event (default loadgen's)", 1, 10_000);
        var command = new Command("e2e", "The whole local chain: raw upsert ceiling, chain ceiling, latency at half of it.")
            .With(quick, minutes, writeParallelism, rawParallelism, rawSeconds, ceilingSeconds, ceilingRate, ceilingReadings, devices, readingsPerEvent);
        command.SetAction((parse, token) =>
        {
            var q = parse.GetValue(quick);
            var arguments = new BenchArguments(
                parse.GetValue(minutes) ?? (q ? 1 : TargetMinutes), parse.GetValue(writeParallelism), parse.GetValue(rawParallelism),
                TimeSpan.FromSeconds(parse.GetValue(rawSeconds) ?? (q ? 5 : 15)), TimeSpan.FromSeconds(parse.GetValue(ceilingSeconds) ?? (q ? 15 : 30)), parse.GetValue(devices))
            {
                ReadingsPerEvent = parse.GetValue(readingsPerEvent),
                CeilingRate = parse.GetValue(ceilingRate),
                CeilingReadings = parse.GetValue(ceilingReadings),
            };
            return run(arguments, parse.Tokens.Where(t => t.Type != System.CommandLine.Parsing.TokenType.Command).Select(t => t.Value).ToList(), token);
        });
        return command;
    }
}
