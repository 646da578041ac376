using System.Text.Json;

namespace SensorPipeline.Functions.Bench;

/// <summary>
/// A backlog drained through the local Release stack (devhost + handler + Cosmos DB emulator): both processors paused,
/// loadgen fills the ingestion hub with ~1 MB events while the splitter keeps running, so the whole backlog waits as
/// envelopes in the weather and seismic hubs — the state after a processor or store outage; then both resume together
/// and the catch-up is timed until every partition's checkpoint is at its hub's end, and <c>loadgen verify</c> checks
/// every reading by its ledger.
/// </summary>
internal sealed class DrainBench(LocalPipeline pipeline, BacklogArguments arguments, TextWriter output)
{
    private static readonly TimeSpan Poll = TimeSpan.FromSeconds(1);
    private static readonly TimeSpan ProgressEvery = TimeSpan.FromSeconds(30);

    private static IReadOnlyList<string> Processors => BacklogLoad.Processors;

    /// <summary>Fills, drains and verifies; the catch-up is judged against <paramref name="ceilingReadingsPerSecond"/>,
    /// the chain's ceiling measured earlier in the same run.</summary>
    public async Task<DrainFigures> RunAsync(double ceilingReadingsPerSecond, CancellationToken cancellationToken)
    {
        var loadAtStart = ProcessCpu.ReadLoadAverage();
        foreach (var function in Processors)
        {
            await pipeline.SetPausedAsync(function, paused: true, cancellationToken);
        }

        var pid = (await pipeline.GetFunctionsStatusAsync(cancellationToken)).HandlerPid ?? throw new InvalidOperationException("devhost reports no running handler");
        HandlerMemory.ResetPeak(pid);

        // Fill: loadgen flat out, the splitter forwarding as it goes; over once the splitter has checkpointed every event.
        var ledger = Path.Combine(pipeline.Options.DataDirectory, "ledger.json");
        var fill = Stopwatch.StartNew();
        await output.WriteLineAsync(string.Create(CultureInfo.InvariantCulture,
            $"fill: loadgen sends {arguments.Readings:N0} readings in events of {arguments.ReadingsPerEvent:N0} over {arguments.Devices:N0} devices; the processors are paused …"));
        await BacklogLoad.SendAsync(pipeline, arguments.Readings, arguments.ReadingsPerEvent, arguments.Devices, "backlog", ledger, cancellationToken);
        var sent = fill.Elapsed;
        var backlog = await BacklogLoad.WaitForSplitAsync(pipeline, cancellationToken);
        var filled = fill.Elapsed;
        var fillPeakKb = HandlerMemory.PeakKb(pid);
        var eventBytes = await BacklogLoad.IngestionEventBytesAsync(pipeline, cancellationToken);
        await output.WriteLineAsync(string.Create(CultureInfo.InvariantCulture,
            $"fill: sent in {sent.TotalSeconds:N1} s, split in {filled.TotalSeconds:N1} s: {backlog:N0} envelopes wait in the processor hubs; resuming both processors …"));

        // Drain: the peak counts from here; devhost restarting the handler would change its pid, so it is followed.
        var residentBeforeKb = HandlerMemory.ResidentKb(pid);
        HandlerMemory.ResetPeak(pid);
        var resumedAt = DateTimeOffset.UtcNow;
        foreach (var function in Processors)
        {
            await pipeline.SetPausedAsync(function, paused: false, cancellationToken);
        }

        using var sampling = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        var sampler = SampleAsync(pid, resumedAt, sampling.Token);
        var timeout = TimeSpan.FromSeconds(Math.Max(1800, arguments.Readings / 200.0));
        var drainedAt = await pipeline.WaitForDrainAsync(timeout, TimeSpan.FromMilliseconds(500), cancellationToken);
        await sampling.CancelAsync();
        var (drainPeakKb, handlerRestarts) = await sampler;
        var drain = drainedAt - resumedAt;
        await output.WriteLineAsync(string.Create(CultureInfo.InvariantCulture, $"drained in {drain.TotalSeconds:N1} s; verifying every reading …"));

        await pipeline.WaitForLastMetricsAsync(cancellationToken);
        var status = await pipeline.GetFunctionsStatusAsync(cancellationToken);
        var readings = await BacklogLoad.MetricAsync(pipeline, Core.Telemetry.MetricNames.ReadingsReceived, cancellationToken);
        var documents = await BacklogLoad.MetricAsync(pipeline, Core.Telemetry.MetricNames.DocumentsWritten, cancellationToken);
        var handlerMs = await BacklogLoad.MetricAsync(pipeline, Core.Telemetry.MetricNames.InvocationMs, cancellationToken);
        // The splitter first, then the processors: the order the readings flow.
        var functions = status.Functions.OrderBy(f => Processors.Contains(f.Name)).ThenBy(f => f.Name, StringComparer.Ordinal).Select(f => new FunctionFigures(
            f.Name, f.InvocationsSucceeded, f.InvocationsFailed, f.InvocationsRetried, f.Largest,
            readings.GetValueOrDefault(f.Name).Max, documents.GetValueOrDefault(f.Name).Max, handlerMs.GetValueOrDefault(f.Name).Max / 1000)).ToList();

        var (verifyExit, verdict) = await Demo.VerifyAsync(pipeline, ledger, Path.Combine(pipeline.Options.DataDirectory, "verdict.json"), cancellationToken);
        return new DrainFigures(arguments, ceilingReadingsPerSecond, eventBytes, sent, filled, backlog, drain, fillPeakKb, residentBeforeKb, drainPeakKb, handlerRestarts,
            functions, verifyExit, await AccountAsync(verdict), verdict, loadAtStart, ProcessCpu.ReadLoadAverage());
    }

    /// <summary>The verdict's accounting, or null (said why) when verify printed no complete verdict.</summary>
    private async Task<ReadingAccount?> AccountAsync(JsonElement verdict)
    {
        try
        {
            return ReadingAccount.FromVerdict(verdict);
        }
        catch (InvalidOperationException e)
        {
            await output.WriteLineAsync(e.Message);
            return null;
        }
    }

    /// <summary>The handler's peak resident set from <paramref name="pid"/>'s VmHWM, following a restarted handler, with
    /// a progress line every <see cref="ProgressEvery"/>; ends when cancelled.</summary>
    private async Task<(long PeakKb, int Restarts)> SampleAsync(int pid, DateTimeOffset resumedAt, CancellationToken cancellationToken)
    {
        long peak = 0;
        var restarts = 0;
        var progressAt = DateTimeOffset.UtcNow + ProgressEvery;
        // A sample every Poll until cancelled: a cadence, not a wait for a result.
        using var timer = new PeriodicTimer(Poll);
        try
        {
            do
            {
                var status = await pipeline.GetFunctionsStatusAsync(cancellationToken);
                if (status.HandlerPid is { } current && current != pid)
                {
                    (pid, restarts) = (current, restarts + 1);
                }

                try
                {
                    peak = Math.Max(peak, HandlerMemory.PeakKb(pid));
                }
                catch (IOException)
                {
                    // The handler exited between the status and the read: the next status names its successor.
                }

                if (DateTimeOffset.UtcNow >= progressAt)
                {
                    progressAt += ProgressEvery;
                    var lag = status.Functions.Where(f => Processors.Contains(f.Name)).Sum(f => f.Partitions.Sum(p => p.Lag));
                    await output.WriteLineAsync(string.Create(CultureInfo.InvariantCulture,
                        $"  {(DateTimeOffset.UtcNow - resumedAt).TotalSeconds,5:N0} s: {lag:N0} envelopes left, handler peak {peak / 1024.0:N0} MB"));
                }
            }
            while (await timer.WaitForNextTickAsync(cancellationToken));

            return (peak, restarts);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            return (peak, restarts);
        }
    }
}
