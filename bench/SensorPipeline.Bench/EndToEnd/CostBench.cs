using System.Text.Json;
using SensorPipeline.Plan.Data;
using SensorPipeline.Plan.Model;

namespace SensorPipeline.EndToEnd.Bench;

/// <summary>
/// <c>./pipeline bench cost [--quick] [--rate 1000] [--seconds 60] [--devices 100] [--app-root DIR]</c>: the chain at a
/// steady rate on a fresh local stack (<c>--app-root</c>: another build's function app, its host.json, function folders
/// and <c>handler/</c>, so a build before a change is measured by the same bench and emulator), measured per reading — RU by container and operation from the Cosmos DB emulator's charge ledger, handler and
/// devhost CPU, invocations and checkpoints, telemetry bytes — written to
/// <c>.pipeline/bench-cost.json</c> for <c>./pipeline plan</c>, then priced at 100,000 and 1,000,000 readings/s.
/// </summary>
internal static class CostBench
{
    /// <summary>How long the bench waits for the handler's device states to be durable (W is at most 10 s).</summary>
    private static readonly TimeSpan StatesSettle = TimeSpan.FromMinutes(1);

    /// <summary>The rates the measured costs are priced at.</summary>
    private static readonly double[] PricedRates = [100_000, 1_000_000];

    /// <summary>The bench's command.</summary>
    public static Command Command()
    {
        var quick = new Option<bool>("--quick") { Description = "A 20 s measured phase instead of 60 s (--seconds given still wins)." };
        var rate = Rates.Option("--rate", $"Readings/s of the measured phase ({Rates.Syntax}).", 1000);
        var seconds = Numbers.Optional("--seconds", "Seconds of the measured phase (default 60)", 1, 86_400);
        var devices = Numbers.Whole("--devices", "Devices per kind", 100, 1, 100_000);
        var appRoot = new Option<DirectoryInfo?>("--app-root") { Description = "Another build's function app root: host.json, function folders, handler/.", HelpName = "DIR" };
        appRoot.Validators.Add(result =>
        {
            if (result.GetValue(appRoot) is { } dir && !Directory.Exists(Path.Combine(dir.FullName, "handler")))
            {
                result.AddError($"--app-root: '{dir}' holds no handler/ folder (a function app root: host.json, function folders, handler/).");
            }
        });
        var command = new Command("cost", "What a reading costs on the local chain (.pipeline/bench-cost.json, read by ./pipeline plan).")
            .With(quick, rate, seconds, devices, appRoot);
        command.SetAction((parse, token) => BenchRun.RunAsync("cost", t => RunAsync(
            parse.GetValue(rate), parse.GetValue(seconds) ?? (parse.GetValue(quick) ? 20 : 60), parse.GetValue(devices), parse.GetValue(appRoot)?.FullName, t), token));
        return command;
    }

    private static async Task<int> RunAsync(double rate, double seconds, int devices, string? appRoot, CancellationToken cancellationToken)
    {
        var layout = RepoLayout.Discover();
        var run = BenchRun.RunFolder(layout, "cost");
        Console.WriteLine($"cost bench ({layout.Configuration} build, {Environment.ProcessorCount} cores): {rate:N0} readings/s for {seconds:N0} s, {devices}+{devices} devices, 200 readings per event; app root {appRoot ?? "(this build)"}; logs under {run}");
        PhaseFigures phase;
        DeviceStateFigures states;
        JsonDocument summary;
        IReadOnlyList<(string Container, string Operation, long Count, double RequestUnits)> charges;
        IReadOnlyList<ContainerRequests> requests;
        IReadOnlyDictionary<string, long> storage;
        LeverFigures levers;
        await using (var pipeline = await LocalPipeline.StartAsync(layout, new StackOptions { DataDirectory = run, AppRoot = appRoot, LogStorageRequests = true }, cancellationToken))
        {
            Console.WriteLine("   warm-up: 1,000 readings/s for 5 s on other devices …");
            await new ChainPhase(pipeline, "warm-up", 1000, TimeSpan.FromSeconds(5), null, devices, 200, "warm").RunAsync(cancellationToken);
            // The emulator's ledger from here on holds the measured phase only (the warm-up's devices drained before,
            // their states written: the handler says so).
            var before = await pipeline.WaitForDeviceStatesAsync(StatesSettle, cancellationToken);
            await EmulatorCharges.ResetAsync(pipeline.CosmosEndpoint, cancellationToken);
            var storageMark = AzuriteRequestLog.Mark(pipeline.StorageRequestLog!);
            var started = DateTimeOffset.UtcNow;
            phase = await new ChainPhase(pipeline, "cost", rate, TimeSpan.FromSeconds(seconds), null, devices, 200).RunAsync(cancellationToken);
            // Device states are written within W after their readings: the phase's last ones land after the drain.
            var after = await pipeline.WaitForDeviceStatesAsync(StatesSettle, cancellationToken);
            states = new DeviceStateFigures(after.Written - before.Written, after.Superseded - before.Superseded, after.DeadLettered - before.DeadLettered, after.MaxLagMs);
            charges = await EmulatorCharges.ReadAsync(pipeline.CosmosEndpoint, cancellationToken);
            requests = await EmulatorCharges.ReadRequestsAsync(pipeline.CosmosEndpoint, cancellationToken);
            storage = await AzuriteRequestLog.CountSinceAsync(pipeline.StorageRequestLog!, storageMark, cancellationToken);
            // The phase's periods only: one aggregation period and a second before its start (ChainPhase's own window).
            summary = await pipeline.GetTelemetrySummaryAsync(started - pipeline.Options.MetricFlushInterval - TimeSpan.FromSeconds(1), DateTimeOffset.UtcNow, cancellationToken);
            Console.WriteLine($"   levers: {CostLevers.Sample} of the chain's readings and device states written again under each policy, TTL 1 s …");
            levers = await CostLevers.MeasureAsync(pipeline, layout.Root, cancellationToken);
        }

        using (summary)
        {
            var measured = CostFigures.From(phase, summary.RootElement, charges, levers) with { Requests = requests };
            var file = Path.Combine(layout.Root, ".pipeline", "bench-cost.json");
            await File.WriteAllTextAsync(file, measured.ToBenchCostJson(DateTimeOffset.UtcNow), cancellationToken);
            var book = PriceBook.Load(Path.Combine(layout.Root, "infra", "prices"), "eastus");
            var costs = ReadingCosts.Load(Path.Combine(layout.Root, "infra", "SensorPipeline.Plan", "per-reading.defaults.json"), file)
                .WithRanges(RangeCpu.Load(Path.Combine(layout.Root, "infra", "SensorPipeline.Plan", "ranges.defaults.json"), Path.Combine(layout.Root, ".pipeline", "bench-ranges.json")));
            var plans = PricedRates.Select(r => Planner.Plan(new PlanRequest(r, 200, r, 7, false, false), costs, book))
                .Append(Planner.Plan(new PlanRequest(PricedRates[0], 200, PricedRates[0], 7, false, false, Expiry.Windows), costs, book)).ToArray();
            CostReport.Write(Console.Out, phase, measured, states, plans, file);
            WriteStorage(Console.Out, storage, phase.Readings);
            PlanCrossCheck.Write(Console.Out, phase, rate, devices);
        }

        return 0;
    }

    /// <summary>Storage operations per reading: azurite's requests (the processors' ownership renewals, checkpoint writes,
    /// listings) over the measured phase, counted from its request log, by method and blob kind.</summary>
    private static void WriteStorage(TextWriter o, IReadOnlyDictionary<string, long> storage, long readings)
    {
        var total = storage.Values.Sum();
        o.WriteLine($"Storage (AzureWebJobsStorage, azurite's request log): {total:N0} operations over {readings:N0} readings = {total / (double)Math.Max(1, readings):N5} per reading");
        foreach (var (kind, count) in storage)
        {
            o.WriteLine($"    {kind,-18} {count,9:N0}  {count / (double)Math.Max(1, readings):N5} per reading");
        }
    }
}
