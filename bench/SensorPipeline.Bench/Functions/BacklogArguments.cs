using SensorPipeline.EndToEnd.Bench;

namespace SensorPipeline.Functions.Bench;

/// <summary>
/// <c>./pipeline bench backlog [--quick] [--readings 1000000] [--readings-per-event 8000] [--devices 200] [--max-age 1h]
/// [--rounds 3] [--events 2] [--handler DLL]</c> and the ceiling's options (<see cref="CeilingSettings.Options"/>): the
/// largest invocations POSTed to the handler (<c>--rounds</c> each; 0 skips them), then the chain's ceiling and a backlog
/// of <c>--readings</c> drained through the local stack against it (0 skips both). <c>--quick</c> is a smoke run:
/// 50,000 readings, one round, the ceiling's short phases (an option given beside it still wins).
/// </summary>
internal sealed record BacklogArguments(long Readings, int ReadingsPerEvent, int Devices, TimeSpan MaxAge, int Rounds, int Events, string? HandlerDll, CeilingSettings Ceiling)
{
    /// <summary>~1 MB ingestion events: loadgen's readings average ~120 bytes (the weather and seismic kinds alternate),
    /// so 8,000 of them make an event of ~0.96 MB, under Event Hubs' 1 MB with room for a reading's size to vary.</summary>
    public const int DefaultReadingsPerEvent = 8_000;

    /// <summary>The backlog the catch-up target is stated for.</summary>
    public const int DefaultReadings = 1_000_000;

    /// <summary>The backlog of a <c>--quick</c> run: enough for a few hundred invocations, not for figures.</summary>
    public const int QuickReadings = 50_000;

    /// <summary>The bench's command; its action runs <paramref name="run"/>.</summary>
    public static Command Command(Func<BacklogArguments, CancellationToken, Task<int>> run)
    {
        var quick = new Option<bool>("--quick") { Description = $"A smoke run: {QuickReadings:N0} readings, 1 round, a 5 s raw loop and a 15 s ceiling run (options given still win); not for figures." };
        var readings = Numbers.OptionalWhole("--readings", $"Readings of the backlog drained through the local stack (default {DefaultReadings:N0}; --quick {QuickReadings:N0}; 0 skips the ceiling and the drain)", 0, 100_000_000);
        var perEvent = Numbers.Whole("--readings-per-event", "Readings per ingestion event of the backlog", DefaultReadingsPerEvent, 1, 10_000);
        var devices = Numbers.Whole("--devices", "Devices the readings spread over, half weather, half seismic, in the ceiling run too", 200, 2, 100_000);
        var maxAge = Durations.Option("--max-age", "The handler's Pipeline__MaxAge in the ceiling run and the drain.", TimeSpan.FromHours(1), minimum: TimeSpan.FromMilliseconds(1));
        var rounds = Numbers.OptionalWhole("--rounds", "Rounds of the largest invocations POSTed to the handler (default 3; --quick 1; 0 skips them)", 0, 1_000);
        var events = Numbers.Whole("--events", "Events per largest invocation", BacklogBench.ShippedMaxEventBatchSize, 1, 1_000);
        var handler = new Option<FileInfo?>("--handler") { Description = "The handler's dll to POST to (default: this build's).", HelpName = "DLL" };
        var ceiling = new CeilingSettings.Options();
        var command = new Command("backlog", "The largest invocations POSTed to the handler; then the chain's ceiling and a ~1 MB-event backlog drained through the stack against it.")
            .With([quick, readings, perEvent, devices, maxAge, rounds, events, handler, .. ceiling.All]);
        command.SetAction((parse, token) =>
        {
            var q = parse.GetValue(quick);
            var arguments = new BacklogArguments(parse.GetValue(readings) ?? (q ? QuickReadings : DefaultReadings), parse.GetValue(perEvent), parse.GetValue(devices),
                parse.GetValue(maxAge), parse.GetValue(rounds) ?? (q ? 1 : 3), parse.GetValue(events), parse.GetValue(handler)?.FullName,
                ceiling.Read(parse, q, parse.GetValue(devices) / 2, readingsPerEvent: null));
            return arguments is { Readings: 0, Rounds: 0 }
                ? Task.FromResult(CommandLineProgram.UsageError("bench", "--readings 0 and --rounds 0 leave nothing to measure."))
                : run(arguments, token);
        });
        return command;
    }
}
