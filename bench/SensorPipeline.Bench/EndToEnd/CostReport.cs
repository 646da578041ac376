using SensorPipeline.Plan.Model;
using SensorPipeline.Plan.Output;

namespace SensorPipeline.EndToEnd.Bench;

/// <summary>Prints the cost bench: per-reading figures, then $/h per component at 100,000 and 1,000,000 readings/s
/// beside the reference write-up and the design before the plan, met/missed, and the two closing lines for tooling.</summary>
internal static class CostReport
{
    // "Processing 100,000 Events Per Second on Azure Functions" (azure.microsoft.com/en-us/blog/processing-100-000-events-per-
    // second-on-azure-functions/): Functions $2.71/h, Storage $1.80/h, App Insights $1.03/h; Cosmos DB not included.
    private const double ReferenceFunctions = 2.71, ReferenceStorage = 1.80, ReferenceInsights = 1.03;

    // The design before ./pipeline plan, priced with the same file at 100,000 readings/s (infra/README.md, docs/benchmarks.md):
    // serverless-default infra changed to the minimum that lets the load flow, the Cosmos DB request log on, batches of 2
    // pinning 96 instances: ≈ $1,580/h in all, ≈ $20.5/h for Functions + Storage + App Insights.
    private const double BeforeTotal = 1580, BeforeFunctionsStorageInsights = 20.5;

    public static void Write(TextWriter o, PhaseFigures phase, CostFigures m, DeviceStateFigures states, IReadOnlyList<PlanResult> plans, string file)
    {
        o.WriteLine();
        o.WriteLine($"measured over {m.Readings:N0} readings ({phase.Notes})");
        o.WriteLine("  RU by operation (the Cosmos DB emulator's charge ledger, documented model):");
        foreach (var (container, operation, count, ru) in m.ByOperation.OrderBy(c => c.Container, StringComparer.Ordinal).ThenBy(c => c.Operation, StringComparer.Ordinal))
        {
            o.WriteLine($"    {container,-12} {operation,-8} {count,9:N0} operations, {ru / Math.Max(1, count),6:N2} RU each, {ru / Math.Max(1, m.Readings),6:N2} RU per reading");
        }

        DeviceWrites(o, m, states);
        o.WriteLine($"  W measured: {states.MaxLagMs / 1000.0:N2} s at most from a reading being stored (its invocation handing the state over) to its device state being durable (Pipeline__DeviceStateLag {StateLag()})");
        o.WriteLine($"  the handler's own CosmosRequestCharge: {m.HandlerReportedRuPerReading:N2} RU per reading (the same charges as the SDK saw them)");

        o.WriteLine($"  handler CPU: {m.HandlerMicros:N0} µs per reading; devhost (Event Hubs emulator + Functions host): {m.DevHostMicros:N0} µs");
        Requests(o, m.Requests);
        o.WriteLine($"  invocations per reading: {m.InvocationsPerReading:N4} (checkpoints the same: batchCheckpointFrequency 1), at host.json's batch of 2");
        o.WriteLine($"  telemetry: {m.TelemetryBytesPerInstanceHour / 1e3:N0} KB per host instance-hour locally (metrics flushed every 2 s; Azure's settings flush every 5 minutes, so the plan keeps its default)");
        o.WriteLine($"  written to {file}; ./pipeline plan now reads these in place of the defaults");
        o.WriteLine();
        Levers(o, m);

        var t = new[] { "component ($/h)", "100,000 readings/s", "1,000,000 readings/s", "100,000/s, expiry by windows", "reference write-up (100,000 events/s)" };
        var rows = new List<string[]>
        {
            Row("Event Hubs", plans, p => p.EventHubs.CostPerHour, "-"),
            Row("Cosmos DB throughput", plans, p => p.Cosmos.ThroughputCostPerHour, "not included"),
            Row("  of it: older windows at their minimum", plans, p => p.Cosmos.Containers.Where(c => c.Name.StartsWith("readings, ", StringComparison.Ordinal)).Sum(c => c.CostPerHour), "-"),
            Row("Cosmos DB storage", plans, p => p.Cosmos.StorageCostPerHour, "not included"),
            Row("Functions", plans, p => p.FunctionsCostPerHour, Money(ReferenceFunctions)),
            Row("Storage (checkpoints)", plans, p => p.Checkpoints.CostPerHour, Money(ReferenceStorage)),
            Row("App Insights", plans, p => p.Telemetry.CostPerHour, Money(ReferenceInsights)),
            Row("total", plans, p => p.TotalPerHour, Money(ReferenceFunctions + ReferenceStorage + ReferenceInsights) + " (3 parts)"),
            Row("$ per million readings", plans, p => p.PerMillionReadings, "-"),
        };
        Print(o, t, rows);
        if (plans[1].IsPlanOnly)
        {
            o.WriteLine($"1,000,000 readings/s is plan-only: {plans[1].EventHubs.PlanOnlyReason}");
        }

        var at100k = plans[0];
        o.WriteLine($"before the plan (same prices, 100,000 readings/s): ≈ ${BeforeTotal:N0}/h in all, ≈ ${BeforeFunctionsStorageInsights:N1}/h Functions + Storage + App Insights");
        o.WriteLine($"target: Functions + Storage + App Insights <= ${PlanReport.FunctionsStorageInsightsTarget:N2}/h at 100,000 readings/s: ${at100k.FunctionsStorageInsightsPerHour:N2}/h  {(at100k.FunctionsStorageInsightsPerHour <= PlanReport.FunctionsStorageInsightsTarget ? "met" : "MISSED")}");
        o.WriteLine($"target: total <= ${PlanReport.PerMillionTarget:N2} per million readings with TTL expiry: ${at100k.PerMillionReadings:N2}  {MetMissed(at100k.PerMillionReadings <= PlanReport.PerMillionTarget)}; with windows: ${plans[2].PerMillionReadings:N2}  {MetMissed(plans[2].PerMillionReadings <= PlanReport.PerMillionTarget)}");
        o.WriteLine($"target: RU per reading <= {PlanReport.RuPerReadingTtlTarget:0} with TTL expiry counted: {m.RuPerReadingWithTtl:N2}  {MetMissed(m.RuPerReadingWithTtl <= PlanReport.RuPerReadingTtlTarget)}");
        o.WriteLine($"target: RU per reading <= {PlanReport.RuPerReadingWindowsTarget:0} with window expiry (no delete): {m.RuPerReading:N2}  {MetMissed(m.RuPerReading <= PlanReport.RuPerReadingWindowsTarget)}");
        o.WriteLine($"RU per reading: {m.RuPerReading.ToString("0.00", CultureInfo.InvariantCulture)}");
        o.WriteLine($"$ per million readings at 100,000 readings/s: {at100k.PerMillionReadings.ToString("0.00", CultureInfo.InvariantCulture)}");
    }

    /// <summary>The ranges the emulator served (Cosmos__PartitionKeyRanges) and what a bulk request carried: the SDK
    /// sends one per range, so at many ranges a request carries few writes and the handler's CPU per reading rises.</summary>
    private static void Requests(TextWriter o, IReadOnlyList<ContainerRequests> requests)
    {
        var ranges = string.Join(", ", requests.Select(r => $"{r.Container} {r.PartitionKeyRanges:N0}"));
        o.WriteLine($"  partition key ranges served (Cosmos__PartitionKeyRanges): {ranges}");
        var bulk = string.Join(", ", requests.Where(r => r.BulkRequests > 0)
            .Select(r => $"{r.Container} {r.BulkRequests:N0} carrying {r.OperationsPerBulkRequest:N1} operations each"));
        o.WriteLine($"  bulk requests (one per range per flush): {(bulk.Length == 0 ? "none" : bulk)}");
    }

    /// <summary>Device-state writes per reading, all of them and after each device's first: the measured devices are new,
    /// so each one's first state is a create, which a long-lived fleet pays once in a device's life, not per reading —
    /// the steady-state figure is the one the target speaks of.</summary>
    private static void DeviceWrites(TextWriter o, CostFigures m, DeviceStateFigures states)
    {
        var stateWrites = states.Written + states.Superseded + states.DeadLettered;
        var creates = m.ByOperation.Where(c => c is { Container: "devices", Operation: "create" }).Sum(c => c.Count);
        var perReading = (double)stateWrites / Math.Max(1, m.Readings);
        var steady = (double)(stateWrites - creates) / Math.Max(1, m.Readings);
        o.WriteLine($"  device-state writes: {stateWrites:N0} ({states.Written:N0} written, {states.Superseded:N0} superseded by a newer stored state, {states.DeadLettered:N0} refused), {perReading:N4} per reading; " +
            $"{steady:N4} after each device's first state (its create, once in a device's life: {creates:N0} here) " +
            $"(target <= {DeviceWritesTarget} at 1 reading/s per device, steady state: {(steady <= DeviceWritesTarget ? "met" : "MISSED")})");
    }

    private const double DeviceWritesTarget = 0.1;

    private static string StateLag() => Environment.GetEnvironmentVariable("Pipeline__DeviceStateLag") ?? "default 00:00:10";
    private static string MetMissed(bool met) => met ? "met" : "MISSED";

    /// <summary>Each lever's effect on the same documents, before and after, and what it saves per reading.</summary>
    private static void Levers(TextWriter o, CostFigures m)
    {
        o.WriteLine($"  levers, measured on {CostLevers.Sample} of the run's documents written again (the emulator's charges, documented model):");
        var header = new[] { "lever", "operation", "before", "RU", "after", "RU", "saved" };
        var rows = m.Levers.Rows.Select(r => new[]
        {
            r.Lever, r.Operation, r.Before, r.BeforeRu.ToString("N2", CultureInfo.InvariantCulture), r.After,
            r.AfterRu.ToString("N2", CultureInfo.InvariantCulture), (r.BeforeRu - r.AfterRu).ToString("N2", CultureInfo.InvariantCulture),
        }).ToList();
        Print(o, header, rows);
        o.WriteLine($"  RU per reading: {m.RuPerReading:N2} written (the run's charges above) + {m.Levers.ExpiryRuPerReading:N2} TTL expiry (measured above) = {m.RuPerReadingWithTtl:N2} with TTL; {m.RuPerReading:N2} with windows (a dropped window charges none)");
        o.WriteLine();
    }

    private static string[] Row(string name, IReadOnlyList<PlanResult> plans, Func<PlanResult, double> value, string reference) =>
        [name, Money(value(plans[0])), Money(value(plans[1])), Money(value(plans[2])), reference];

    private static string Money(double v) => v.ToString("N2", CultureInfo.InvariantCulture);

    private static void Print(TextWriter o, string[] header, List<string[]> rows)
    {
        var widths = header.Select((h, i) => Math.Max(h.Length, rows.Max(r => r[i].Length))).ToArray();
        string Line(string[] cells) => "│ " + string.Join(" │ ", cells.Select((c, i) => i == 0 ? c.PadRight(widths[i]) : c.PadLeft(widths[i]))) + " │";
        o.WriteLine(Line(header));
        foreach (var r in rows)
        {
            o.WriteLine(Line(r));
        }
    }
}
