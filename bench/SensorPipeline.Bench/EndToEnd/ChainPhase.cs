using System.Text.Json;

namespace SensorPipeline.EndToEnd.Bench;

/// <summary>
/// loadgen into the running chain (no pause, no poison, no duplicates), then drain. Documents are the processors'
/// <c>DocumentsWritten</c> (live + archive) from devhost's telemetry summary; the time runs from loadgen's first send
/// (its ledger's <c>startedAt</c>) to the first status poll that found every consumer group caught up.
/// </summary>
internal sealed class ChainPhase(LocalPipeline pipeline, string name, double? rate, TimeSpan duration, long? maxReadings, int devicesPerKind, int? readingsPerEvent, string devicePrefix = "dev")
{
    public async Task<PhaseFigures> RunAsync(CancellationToken cancellationToken)
    {
        var slug = name.Split(' ')[0];
        var ledgerPath = Path.Combine(pipeline.Options.DataDirectory, $"ledger-{slug}.json");
        var before = await pipeline.GetFunctionsStatusAsync(cancellationToken);
        var cpu = CpuMeter.Start(Processes.Of(pipeline, before.HandlerPid));
        var started = DateTimeOffset.UtcNow;
        await SendAsync(LoadGenArguments(ledgerPath), slug, cancellationToken);

        var drainedAt = await pipeline.WaitForDrainAsync(TimeSpan.FromMinutes(10), TimeSpan.FromMilliseconds(250), cancellationToken);
        var cpuSeconds = cpu.Stop();
        var standInRss = ProcessCpu.ReadRssMegabytes(pipeline.Cosmos.Id);
        var after = await pipeline.GetFunctionsStatusAsync(cancellationToken);
        using var ledger = JsonDocument.Parse(await File.ReadAllTextAsync(ledgerPath, cancellationToken));
        var counts = ledger.RootElement.GetProperty("counts");
        var firstSend = ledger.RootElement.GetProperty("startedAt").GetDateTimeOffset();
        cpuSeconds[Processes.LoadGen] = counts.GetProperty("cpuSeconds").GetDouble();

        await pipeline.WaitForLastMetricsAsync(cancellationToken);
        // One aggregation period and a second before the start: a period that began just before the first send holds its
        // first batches, and devhost's "now" is a little later than ours. No more, so a warm-up's metrics (whose last
        // period began before its drain, two periods and a second before this phase started) stay out of the window.
        using var summary = await pipeline.GetTelemetrySummaryAsync(
            DateTimeOffset.UtcNow - started + pipeline.Options.MetricFlushInterval + TimeSpan.FromSeconds(1), cancellationToken);
        var (documents, latency) = Telemetry.Read(summary.RootElement);
        var evicted = summary.RootElement.GetProperty("ingestion").GetProperty("evicted").GetInt64();

        var readings = counts.GetProperty("readingsSent").GetInt64();
        var events = counts.GetProperty("eventsSent").GetInt64();
        var notes = $"loadgen {(rate is null ? "flat out" : $"at {rate:N0} readings/s")} for {duration.TotalSeconds:N0} s, {devicesPerKind}+{devicesPerKind} devices" +
            (maxReadings is { } cap ? $" (at most {cap:N0} readings)" : "") + "; " +
            $"sent {readings:N0} readings in {counts.GetProperty("elapsedSeconds").GetDouble():F1} s; drained {(drainedAt - firstSend).TotalSeconds:F1} s after the first send; stand-in RSS {standInRss:N0} MB" +
            (after.HandlerStarts != before.HandlerStarts ? $"; THE HANDLER RESTARTED ({before.HandlerStarts} → {after.HandlerStarts} starts)" : "") +
            (evicted > 0 ? $"; {evicted:N0} metric points evicted (percentiles incomplete)" : "") +
            (documents != readings ? $"; documents ≠ readings sent ({documents - readings:+#;-#;0})" : "");
        return new PhaseFigures(name, readings, documents, (drainedAt - firstSend).TotalSeconds, counts.GetProperty("elapsedSeconds").GetDouble(), cpuSeconds, latency, notes)
        {
            Events = events,
            Invocations = Invocations(after) - Invocations(before),
            SplitterInvocations = Invocations(after, Splitter) - Invocations(before, Splitter),
            EnvelopeEvents = EnvelopesEnqueued(after) - EnvelopesEnqueued(before),
            ProcessorPartitions = after.Functions.First(f => f.Name != Splitter).Partitions.Count,
        };
    }

    private List<string> LoadGenArguments(string ledgerPath)
    {
        List<string> send =
        [
            pipeline.Layout.LoadGenDll, "--connection", pipeline.EventHubConnection,
            "--duration", duration.TotalSeconds.ToString("0.###", CultureInfo.InvariantCulture) + "s",
            "--devices-per-kind", Invariant(devicesPerKind),
            "--device-prefix", devicePrefix, "--ledger", ledgerPath, "--progress-interval", "5s",
        ];
        if (rate is { } r)
        {
            send.AddRange(["--rate", r.ToString("0", CultureInfo.InvariantCulture)]);
        }

        if (readingsPerEvent is { } perEvent)
        {
            send.AddRange(["--readings-per-event", Invariant(perEvent)]);
        }

        if (maxReadings is { } count)
        {
            send.AddRange(["--count", count.ToString(CultureInfo.InvariantCulture)]);
        }

        return send;
    }

    private async Task SendAsync(List<string> send, string slug, CancellationToken cancellationToken)
    {
        var logs = Path.Combine(pipeline.Options.DataDirectory, "logs");
        await using var loadgen = ChildProcess.Start(new ChildProcessOptions { Name = "loadgen", FileName = "dotnet", Arguments = send, LogPath = Path.Combine(logs, $"loadgen-{slug}.log"), WorkingDirectory = pipeline.Layout.Root });
        var exit = await loadgen.WaitForExitAsync(cancellationToken);
        if (exit != 0)
        {
            throw new InvalidOperationException($"loadgen exited with {exit}; see {loadgen.LogPath}");
        }
    }

    private const string Splitter = "Splitter";

    private static long Invocations(FunctionsStatus status, string? function = null) =>
        status.Functions.Where(f => function is null || f.Name == function).Sum(f => f.InvocationsSucceeded + f.InvocationsFailed);

    /// <summary>Events ever enqueued on the hubs the processors read (each partition's last sequence number + 1).</summary>
    private static long EnvelopesEnqueued(FunctionsStatus status) =>
        status.Functions.Where(f => f.Name != Splitter).Sum(f => f.Partitions.Sum(p => p.LastEnqueuedSequenceNumber + 1));

    private static string Invariant(int value) => value.ToString(CultureInfo.InvariantCulture);
}
