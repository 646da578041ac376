namespace SensorPipeline.Plan.Model;

/// <summary>Derives every capacity setting and its cost for a rate: Event Hubs, then Functions, Cosmos DB, checkpoints, telemetry.</summary>
internal static class Planner
{
    /// <summary>Ownership records: each partition's owner renews (a write) every load-balancing cycle (10 s) and lists the
    /// others (a read).</summary>
    private const double OwnershipCyclesPerPartitionHour = 3600 / 10.0;

    public static PlanResult Plan(PlanRequest request, ReadingCosts costs, PriceBook book)
    {
        var tier = EventHubsPlanner.ChooseTier(request, costs, book);
        var functions = FunctionsPlanner.Plan(request, costs, book, tier.Partitions);
        var eventHubs = EventHubsPlanner.Finish(request, costs, book, tier, functions);
        var cosmos = CosmosPlanner.Plan(request, costs, book, functions);

        // Storage: one Set Blob Metadata per checkpoint ("other" operations), plus the ownership records.
        var checkpointsPerHour = functions.InvocationsPerSecond / functions.Batching.BatchCheckpointFrequency * 3600;
        var ownershipCycles = functions.Functions.Count * tier.Partitions * OwnershipCyclesPerPartitionHour;
        var storage = new StorageRequests(ReadsPerHour: ownershipCycles, WritesPerHour: checkpointsPerHour + ownershipCycles);
        var operations = storage.ReadsPerHour + storage.WritesPerHour;
        var checkpoints = new SmallPlan($"{operations / 1e6:N2} M operations/h", operations / 10_000 * book.Price("storage.hot.otherTenThousand"));

        var telemetryGbPerHour = functions.Instances * costs.TelemetryBytesPerInstanceHour / 1e9;
        var telemetry = new SmallPlan($"{telemetryGbPerHour * 1000:N1} MB/h", telemetryGbPerHour * book.Price("logAnalytics.analyticsGb"));
        var diagnostics = DiagnosticsPlanner.Plan(costs, book, tier.Tier, functions, cosmos.Requests, storage);
        return new PlanResult(request, eventHubs, cosmos, functions, checkpoints, telemetry, diagnostics, costs.HostCpuMicros);
    }
}
