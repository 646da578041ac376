namespace SensorPipeline.EndToEnd.Bench;

/// <summary>
/// The chain's ceiling, the one way the benches measure it (<c>bench e2e</c>'s phases 1 and 2; <c>bench backlog</c>
/// measures its catch-up against it): the emulator's raw upsert loop, then loadgen offering more than the chain carries
/// (<see cref="CeilingSettings.OverRaw"/> × the raw loop) so a backlog builds and the chain runs flat out, then drain.
/// Each phase on a freshly started stack from <paramref name="start"/> (named after the phase), so the store starts empty.
/// </summary>
internal sealed class ChainCeiling(CeilingSettings settings, Func<string, Task<LocalPipeline>> start)
{
    /// <summary>At most this many documents in the raw loop: the emulator's memory and query cost grow with the container.</summary>
    private const long MaxRawDocuments = 80_000;

    /// <summary>Runs the raw loop and the ceiling phase, printing a line before and after each.</summary>
    public async Task<(PhaseFigures Raw, PhaseFigures Ceiling)> MeasureAsync(CancellationToken cancellationToken)
    {
        PhaseFigures raw;
        await using (var pipeline = await start("1-raw"))
        {
            Console.WriteLine($"1. raw upsert loop: {settings.RawParallelism} concurrent upserts for {settings.RawDuration.TotalSeconds:N0} s …");
            raw = await new RawUpsertPhase(pipeline, settings.RawParallelism, settings.RawDuration, MaxRawDocuments).RunAsync(cancellationToken);
        }

        Console.WriteLine($"   {raw.DocumentsPerSecond:N0} documents/s");

        PhaseFigures ceiling;
        var over = settings.OfferedRate(raw);
        var offered = settings.Rate is null ? $"{CeilingSettings.OverRaw:0.#}× raw" : "--ceiling-rate";
        await using (var pipeline = await start("2-ceiling"))
        {
            await WarmUpAsync(pipeline, cancellationToken);
            Console.WriteLine($"2. chain ceiling: loadgen at {over:N0} readings/s ({offered}) for {settings.Duration.TotalSeconds:N0} s, at most {settings.MaxReadings:N0}, then drain …");
            ceiling = await new ChainPhase(pipeline, "ceiling", over, settings.Duration, settings.MaxReadings, settings.DevicesPerKind, settings.ReadingsPerEvent).RunAsync(cancellationToken);
        }

        Console.WriteLine($"   {ceiling.DocumentsPerSecond:N0} documents/s written, {ceiling.ReadingsPerSecond:N0} readings/s sent");
        return (raw, ceiling);
    }

    /// <summary>A fresh stack's first invocations pay for JIT and connection set-up: a short load on other devices first,
    /// so the measured phase sees the steady state (as a long-running Function App would), not the start.</summary>
    public async Task WarmUpAsync(LocalPipeline pipeline, CancellationToken cancellationToken)
    {
        Console.WriteLine("   warm-up: 1,000 readings/s for 5 s on other devices …");
        await new ChainPhase(pipeline, "warm-up", 1000, TimeSpan.FromSeconds(5), null, settings.DevicesPerKind, settings.ReadingsPerEvent, "warm").RunAsync(cancellationToken);
    }
}
