namespace SensorPipeline.Plan.Model;

/// <summary>Derives every capacity setting and its cost for a rate: Event Hubs, then Functions, Cosmos DB, checkpoints, telemetry.</summary>
internal static class Planner
{
    /// <summary>Ownership records: each partition's owner renews (a write) every load-balancing cycle (10 s) and lists the
    /// others (a read).</summary>
    private const double OwnershipCyclesPerPartitionHour = 3600 / 10.0;

    /// <summary>Private endpoints of the private network choice: Event Hubs, Cosmos DB, Storage blob and table.</summary>
    public const int PrivateEndpoints = 4;

    public static PlanResult Plan(PlanRequest request, ReadingCosts costs, PriceBook book)
    {
        costs = WithProcessorCpu(request, costs, book);
        // The tier from a first estimate of the envelopes' bytes (one event per invocation: the most overhead per reading),
        // then again from the envelopes the functions' batching gives, unless that would change the partitions.
        var partitions = (int)book.Limit("eventHubs.standard.maxPartitionsPerHub");
        var estimate = EnvelopeShape.Of(1, request.ReadingsPerEvent, request.Devices, partitions);
        var tier = EventHubsPlanner.ChooseTier(request, costs, book, estimate.EnvelopeBytesPerReading);
        var functions = FunctionsPlanner.Plan(request, costs, book, tier.Partitions);
        var refined = EventHubsPlanner.ChooseTier(request, costs, book, functions.Envelopes.EnvelopeBytesPerReading);
        tier = refined.Partitions == tier.Partitions ? refined : tier;
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
        var privateLink = request.Private ? PrivateLink(request, costs, book, functions) : null;
        return new PlanResult(request, eventHubs, cosmos, functions, checkpoints, telemetry, diagnostics, costs, privateLink);
    }

    /// <summary>The processors' CPU per reading at the readings container's partition key ranges, when the ranges bench's
    /// figures are loaded (<see cref="RangeCpu"/>); else the costs' own figure.</summary>
    private static ReadingCosts WithProcessorCpu(PlanRequest request, ReadingCosts costs, PriceBook book)
    {
        if (costs.Ranges is not { } ranges)
        {
            return costs;
        }

        var (micros, why) = ranges.For(CosmosPlanner.Readings(request, costs, book).PhysicalPartitions);
        return costs.With("cpu.processorMicros", micros, $"{why}: {ranges.Origin}");
    }

    private static PrivateLinkPlan PrivateLink(PlanRequest request, ReadingCosts costs, PriceBook book, FunctionsPlan functions)
    {
        var eventHubsBytes = 2 * request.Rate * (costs.ReadingBytes + functions.Envelopes.EnvelopeBytesPerReading);
        var cosmosBytes = request.Rate * (costs.StoredReadingBytes + (costs.DeviceStateWritesPerReading * costs.DeviceStateBytes));
        var eventHubsGb = eventHubsBytes * 3600 / 1e9;
        var cosmosGb = cosmosBytes * 3600 / 1e9;
        var cost = (PrivateEndpoints * book.Price("privateLink.endpointHour")) + ((eventHubsGb + cosmosGb) * book.Price("privateLink.dataProcessedGb"));
        return new PrivateLinkPlan(PrivateEndpoints, eventHubsGb, cosmosGb, cost);
    }
}
