namespace SensorPipeline.EndToEnd.Bench;

/// <summary>
/// <c>./pipeline bench e2e [--minutes 5] [--quick] [--write-parallelism 64] [--raw-parallelism 64] [--raw-seconds 15]
/// [--ceiling-seconds 30] [--ceiling-rate N] [--ceiling-readings 400000] [--devices 100] [--readings-per-event N]</c>.
/// <c>--quick</c> is for iterating: 1 minute at half and 1 at three quarters of the ceiling, a 5 s raw loop and a 15 s
/// ceiling run (an option given beside it still wins); its latency verdicts are not the 5-minute ones.
/// </summary>
/// <param name="Minutes">Minutes of each latency run (half and three quarters of the ceiling).</param>
/// <param name="Ceiling">How the ceiling is measured, and the handler settings of every phase.</param>
internal sealed record BenchArguments(double Minutes, CeilingSettings Ceiling)
{
    /// <summary>The minutes the latency targets are stated for.</summary>
    public const double TargetMinutes = 5;

    /// <summary>The bench's command; its action runs <paramref name="run"/> with the arguments and the command line as given.</summary>
    public static Command Command(Func<BenchArguments, IReadOnlyList<string>, CancellationToken, Task<int>> run)
    {
        var quick = new Option<bool>("--quick") { Description = "For iterating: 1 minute at half and 1 at three quarters of the ceiling, a 5 s raw loop, a 15 s ceiling run (options given still win)." };
        var minutes = Numbers.Optional("--minutes", $"Minutes of each latency run, at half and at three quarters of the ceiling (default {TargetMinutes})", 0.1, 60);
        var ceiling = new CeilingSettings.Options();
        var devices = Numbers.Whole("--devices", "Devices per kind", 100, 1, 10_000);
        var readingsPerEvent = Numbers.OptionalWhole("--readings-per-event", "loadgen's --readings-per-event (default loadgen's)", 1, 10_000);
        var command = new Command("e2e", "The whole local chain: raw upsert ceiling, chain ceiling, latency at half and at three quarters of it.")
            .With([quick, minutes, .. ceiling.All, devices, readingsPerEvent]);
        command.SetAction((parse, token) =>
        {
            var q = parse.GetValue(quick);
            var arguments = new BenchArguments(parse.GetValue(minutes) ?? (q ? 1 : TargetMinutes), ceiling.Read(parse, q, parse.GetValue(devices), parse.GetValue(readingsPerEvent)));
            return run(arguments, parse.Tokens.Where(t => t.Type != System.CommandLine.Parsing.TokenType.Command).Select(t => t.Value).ToList(), token);
        });
        return command;
    }
}
