namespace SensorPipeline.Functions.Bench;

/// <summary>
/// <c>./pipeline bench backlog [--readings 1000000] [--readings-per-event 8000] [--devices 100] [--max-age 1h]
/// [--rounds 3] [--events 2] [--handler DLL]</c>: the largest invocations POSTed to the handler (<c>--rounds</c> each;
/// 0 skips them), then a backlog of <c>--readings</c> drained through the local stack (0 skips it).
/// </summary>
internal sealed record BacklogArguments(long Readings, int ReadingsPerEvent, int Devices, TimeSpan MaxAge, int Rounds, int Events, string? HandlerDll)
{
    /// <summary>~1 MB ingestion events: loadgen's readings average ~120 bytes (the weather and seismic kinds alternate),
    /// so 8,000 of them make an event of ~0.96 MB, under Event Hubs' 1 MB with room for a reading's size to vary.</summary>
    public const int DefaultReadingsPerEvent = 8_000;

    /// <summary>The bench's command; its action runs <paramref name="run"/>.</summary>
    public static Command Command(Func<BacklogArguments, CancellationToken, Task<int>> run)
    {
        var readings = Numbers.WholeLong("--readings", "Readings of the backlog drained through the local stack (0 skips it)", 1_000_000, 0, 100_000_000);
        var perEvent = Numbers.Whole("--readings-per-event", "Readings per ingestion event", DefaultReadingsPerEvent, 1, 10_000);
        var devices = Numbers.Whole("--devices", "Devices the readings spread over", 100, 2, 100_000);
        var maxAge = Durations.Option("--max-age", "The handler's Pipeline__MaxAge for the drain.", TimeSpan.FromHours(1), minimum: TimeSpan.FromMilliseconds(1));
        var rounds = Numbers.Whole("--rounds", "Rounds of the largest invocations POSTed to the handler (0 skips them)", 3, 0, 1_000);
        var events = Numbers.Whole("--events", "Events per largest invocation", BacklogBench.ShippedMaxEventBatchSize, 1, 1_000);
        var handler = new Option<FileInfo?>("--handler") { Description = "The handler's dll to POST to (default: this build's).", HelpName = "DLL" };
        var command = new Command("backlog", "The largest invocations POSTed to the handler, then a ~1 MB-event backlog drained through the stack.")
            .With(readings, perEvent, devices, maxAge, rounds, events, handler);
        command.SetAction((parse, token) => parse.GetValue(readings) == 0 && parse.GetValue(rounds) == 0
            ? Task.FromResult(CommandLineProgram.UsageError("bench", "--readings 0 and --rounds 0 leave nothing to measure."))
            : run(new BacklogArguments(parse.GetValue(readings), parse.GetValue(perEvent), parse.GetValue(devices), parse.GetValue(maxAge), parse.GetValue(rounds),
                parse.GetValue(events), parse.GetValue(handler)?.FullName), token));
        return command;
    }
}
