using System.Globalization;
using SensorPipeline.Plan.Model;

namespace SensorPipeline.Plan.Output;

/// <summary>Prints a plan: per component demand / deployed / headroom / $/h / share, totals, targets, sensitivity, settings.</summary>
internal static class PlanReport
{
    /// <summary>Functions + Storage + App Insights at 100,000 readings/s: half the reference write-up's $5.54/h.</summary>
    public const double FunctionsStorageInsightsTarget = 2.75;

    /// <summary>Total $ per million readings, with the next issue's levers.</summary>
    public const double PerMillionTarget = 0.45;

    /// <summary>RU per reading, TTL deletes counted, with readings expiring by TTL.</summary>
    public const double RuPerReadingTtlTarget = 13;

    /// <summary>RU per reading with readings expiring by dropped windows (no delete charged).</summary>
    public const double RuPerReadingWindowsTarget = 8;

    public static void Write(TextWriter o, PlanResult plan, Sensitivity sensitivity, PriceBook book)
    {
        var costs = plan.Costs;
        var r = plan.Request;
        o.WriteLine($"plan for {r.Rate:N0} readings/s ({r.ReadingsPerEvent} readings per event, {r.Devices:N0} devices, {r.RetentionDays:0.##}-day retention by {(r.Expiry == Expiry.Windows ? $"{r.WindowDays:0.##}-day windows dropped whole" : "TTL")}{(r.Reserved ? ", reserved capacity" : "")}{(r.Zones ? ", availability zones" : "")}{(r.Private ? ", private network" : "")}), {book.RegionName}, list prices");
        o.WriteLine($"prices and limits: {book.File}; {costs.Description}");
        if (plan.IsPlanOnly)
        {
            o.WriteLine();
            o.WriteLine($"PLAN-ONLY: {plan.EventHubs.PlanOnlyReason}");
        }

        o.WriteLine();
        Components(plan, book).WriteTo(o);
        o.WriteLine();
        o.WriteLine($"total: ${plan.TotalPerHour:N2}/h = ${plan.PerMillionReadings:N2} per million readings ({r.Rate * 3600 / 1e6:N0} M readings/h)");
        Targets(o, plan);
        o.WriteLine();
        PlanInputs.Write(o, plan, book);
        o.WriteLine();
        SensitivityTable("processor CPU per reading (bench functions ranges)", sensitivity.ProcessorCpu).WriteTo(o);
        o.WriteLine();
        SensitivityTable("index terms per GeoJSON Point (assumed 1)", sensitivity.SpatialTerms).WriteTo(o);
        o.WriteLine();
        DiagnosticLogs(plan, book).WriteTo(o);
        o.WriteLine();
        BillExtras.Write(o, plan, book);
        o.WriteLine();
        Settings(o, plan);
        Notes(o, plan, book, costs);
    }

    private static Table Components(PlanResult plan, PriceBook book)
    {
        var t = new Table("component", "demand", "deployed", "headroom", "$/h", "share");
        var total = plan.TotalPerHour;
        string Money(double v, params string[] keys) => $"{v:N2}{(keys.Any(k => !book.IsVerified(k)) ? "*" : "")}";
        string Share(double v) => total > 0 ? $"{v / total:P1}" : "-";
        var eh = plan.EventHubs;
        var unit = eh.Tier == "Standard" ? "TU" : "PU";
        t.Add($"Event Hubs {eh.Tier}, {EventHubsPlanner.Hubs} hubs x {eh.PartitionsPerHub} partitions",
            $"{eh.IngressMBps:N1} MB/s, {eh.IngressEventsPerSecond:N0} events/s in",
            $"{eh.Capacity} {unit} ({eh.CapacityMBps:N0} MB/s){(eh.AutoInflateMaximum > 0 ? $", auto-inflate to {eh.AutoInflateMaximum}" : "")}",
            Headroom(eh.CapacityMBps, eh.IngressMBps), Money(eh.CostPerHour, eh.Tier == "Standard" ? "eventHubs.standard.throughputUnitHour" : "eventHubs.premium.processingUnitHour"), Share(eh.CostPerHour));
        var ruKeys = RuKeys(plan.Request);
        foreach (var c in plan.Cosmos.Containers)
        {
            var deployed = c.Kind == "manual" ? $"{c.DeployedRu:N0} RU/s manual" : $"autoscale to {c.DeployedRu:N0} RU/s";
            t.Add($"Cosmos DB {c.Name}", $"{c.DemandRu:N0} RU/s", $"{deployed}, {c.PhysicalPartitions:N0} phys. part.",
                c.DemandRu > 0 ? Headroom(c.DeployedRu, c.DemandRu) : "-", Money(c.CostPerHour, ruKeys), Share(c.CostPerHour));
        }

        var expiry = plan.Request.Expiry == Expiry.Windows
            ? $"{plan.Request.RetentionDays:0.##} days + a {plan.Request.WindowDays:0.##}-day window, dropped whole"
            : $"TTL {plan.Request.RetentionDays:0.##} days";
        t.Add("Cosmos DB storage", $"{plan.Cosmos.StorageGb:N0} GB", expiry, "-", Money(plan.Cosmos.StorageCostPerHour, "cosmos.storage.gbMonth"), Share(plan.Cosmos.StorageCostPerHour));
        var fn = plan.Functions;
        var gbKeys = new[] { "functions.flex.alwaysReadyBaselineGbSecond", "functions.flex.alwaysReadyExecutionGbSecond" };
        foreach (var f in fn.Functions)
        {
            t.Add($"Functions {f.Name}", $"{f.Vcpu:N2} vCPU, {f.InvocationsPerSecond:N1} invocations/s",
                $"{f.Instances} x {fn.InstanceMemoryMB:N0} MB always ready ({f.Instances * fn.CoresPerInstance:0.##} cores)",
                Headroom(f.Instances * fn.CoresPerInstance, f.Vcpu), Money(f.CostPerHour, gbKeys), Share(f.CostPerHour));
        }

        t.Add("Functions executions", $"{fn.InvocationsPerSecond * 3600 / 1e6:N2} M/h", "-", "-", Money(fn.ExecutionsCostPerHour, "functions.flex.millionExecutions"), Share(fn.ExecutionsCostPerHour));
        t.Add("Storage: checkpoints, ownership", plan.Checkpoints.Demand, "Standard LRS, Hot", "-", Money(plan.Checkpoints.CostPerHour, "storage.hot.otherTenThousand"), Share(plan.Checkpoints.CostPerHour));
        t.Add("App Insights (handler + host)", plan.Telemetry.Demand, "Analytics logs", "-", Money(plan.Telemetry.CostPerHour, "logAnalytics.analyticsGb"), Share(plan.Telemetry.CostPerHour));
        if (plan.PrivateLink is { } pl)
        {
            t.Add($"Private Link: {pl.Endpoints} private endpoints", $"{pl.GbPerHour:N0} GB/h processed (Event Hubs {pl.EventHubsGbPerHour:N0}, Cosmos DB {pl.CosmosGbPerHour:N0})",
                "private network", "-", Money(pl.CostPerHour, "privateLink.endpointHour", "privateLink.dataProcessedGb"), Share(pl.CostPerHour));
        }

        var logs = plan.Diagnostics;
        t.Add("Diagnostic logs sent (audit)", $"{logs.Categories.Where(c => c.On).Sum(c => c.RowsPerHour):N0} rows/h",
            $"{logs.Categories.Count(c => c.On)} of {logs.Categories.Count} categories", "-", Money(logs.OnCostPerHour, "logAnalytics.analyticsGb"), Share(logs.OnCostPerHour));
        return t;
    }

    private static Table DiagnosticLogs(PlanResult plan, PriceBook book)
    {
        var t = new Table("diagnostic log", "sent", "rows", "rows/h", "$/h");
        var star = book.IsVerified("logAnalytics.analyticsGb") ? "" : "*";
        foreach (var c in plan.Diagnostics.Categories)
        {
            t.Add($"{c.Resource}: {c.Category}", c.On ? "on" : "off", c.Rows, $"{c.RowsPerHour:N0}", $"{c.CostPerHour:N2}{star}{(c.On ? "" : " if on")}");
        }

        return t;
    }

    private static string[] RuKeys(PlanRequest r)
    {
        var keys = new List<string> { "cosmos.provisioned.hundredRuHour" };
        if (r.Reserved) keys.Add("cosmos.reserved.oneYearMultiplier");
        if (r.Zones) keys.Add("cosmos.zoneRedundancy.multiplier");
        return [.. keys];
    }

    private static string Headroom(double deployed, double demand) => demand > 0 ? $"{(deployed / demand) - 1:+0%;-0%}" : "-";

    private static void Targets(TextWriter o, PlanResult plan)
    {
        var fsa = plan.FunctionsStorageInsightsPerHour;
        o.WriteLine(plan.Request.Rate == PlanRequest.TargetRate
            ? $"target: Functions + Storage + App Insights <= ${FunctionsStorageInsightsTarget:N2}/h at 100,000 readings/s: ${fsa:N2}/h  {MetMissed(fsa <= FunctionsStorageInsightsTarget)}"
            : $"target: Functions + Storage + App Insights <= ${FunctionsStorageInsightsTarget:N2}/h is stated at 100,000 readings/s (here ${fsa:N2}/h; --rate 100000 checks it)");
        o.WriteLine($"target: total <= ${PerMillionTarget:N2} per million readings: ${plan.PerMillionReadings:N2}  {MetMissed(plan.PerMillionReadings <= PerMillionTarget)}");
        var ru = plan.Cosmos.RuPerReading(plan.Request.Rate);
        var (target, how) = plan.Request.Expiry == Expiry.Windows ? (RuPerReadingWindowsTarget, "with window expiry") : (RuPerReadingTtlTarget, "with TTL expiry counted");
        o.WriteLine($"target: RU per reading <= {target:0} {how}: {ru:N2}  {MetMissed(ru <= target)}");
    }

    private static string MetMissed(bool met) => met ? "met" : "MISSED";

    private static Table SensitivityTable(string varied, IReadOnlyList<SensitivityRow> rows)
    {
        var t = new Table(varied, "instances", "readings RU/s", "Functions $/h", "Functions + Storage + App Insights $/h", "total $/h", "$ per million readings");
        foreach (var s in rows)
        {
            var p = s.Plan;
            t.Add($"{s.Label}{(s.ThisPlan ? " (this plan)" : "")}", $"{p.Functions.Instances}", $"{p.Cosmos.Container("readings").DeployedRu:N0}", $"{p.FunctionsCostPerHour:N2}",
                $"{p.FunctionsStorageInsightsPerHour:N2}", $"{p.TotalPerHour:N2}", $"{p.PerMillionReadings:N3}");
        }

        return t;
    }

    private static void Settings(TextWriter o, PlanResult plan)
    {
        o.WriteLine("settings (azd env; --azd writes them; HOST_EVENTHUBS_* go into the packaged host.json):");
        foreach (var (key, value) in ProfileSettings.Values(plan))
        {
            o.WriteLine($"  {key}={value}");
        }
    }

    private static void Notes(TextWriter o, PlanResult plan, PriceBook book, ReadingCosts costs)
    {
        var notes = plan.Cosmos.Containers.Where(c => c.Note is not null).Select(c => $"Cosmos DB {c.Name}: {c.Note}").ToList();
        if (plan.Functions.Note is not null) notes.Add($"Functions: {plan.Functions.Note}");
        notes.Add($"diagnostic logs: a row of {costs.RequestLogRowBytes:N0} B (assumed: _BilledSize in the workspace gives the real one) at the Log Analytics price; the per-request ones stay off (COSMOS_REQUEST_LOGS, COSMOS_PARTITION_KEY_LOGS, STORAGE_REQUEST_LOGS), on they would add ${plan.Diagnostics.Categories.Where(c => !c.On).Sum(c => c.CostPerHour):N2}/h.");
        if (plan.PrivateLink is { } pl)
        {
            notes.Add($"private network: the \"Private Link\" row carries the private endpoints' hours ({pl.Endpoints} x privateLink.endpointHour) and the GB they process (privateLink.dataProcessedGb, each GB once in the direction it crosses): " +
                $"Event Hubs' bytes in and out on both hops ({pl.EventHubsGbPerHour:N0} GB/h) and Cosmos DB's writes ({pl.CosmosGbPerHour:N0} GB/h); request overheads, responses and checkpoints are left out. It is part of the total, not of Functions + Storage + App Insights.");
        }

        if (plan.Request.Zones)
        {
            var zones = book.PriceEntry("cosmos.zoneRedundancy.multiplier");
            notes.Add($"--zones: provisioned RU/s priced x{zones.Value} ({zones.Source}, {zones.Date}{(zones.Verified ? "" : ", unverified")}).");
        }

        notes.Add($"batching: {plan.Functions.Batching.MaxEventBatchSize} events per invocation, filled for up to {plan.Functions.Batching.MaxWaitTime.TotalSeconds:0.#} s per hop; target-based scaling asks one instance per {plan.Functions.Batching.TargetUnprocessedEventThreshold} unprocessed events.");
        o.WriteLine();
        foreach (var n in notes)
        {
            o.WriteLine($"note: {n}");
        }

        var unverified = book.UsedUnverified.ToList();
        if (unverified.Count > 0)
        {
            o.WriteLine("* unverified prices (a secondary source or a sample figure; check the Azure Retail Prices API):");
            foreach (var e in unverified)
            {
                o.WriteLine($"  {e.Key} = {e.Value.ToString(CultureInfo.InvariantCulture)} {e.Unit} ({e.Region}, {e.Date}): {e.Source}");
            }
        }
    }
}
