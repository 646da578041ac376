namespace SensorPipeline.Plan.Tests;

/// <summary>
/// The plan at 1,000 / 100,000 / 1,000,000 readings/s against arithmetic written out here from the tests' fixed inputs:
/// 122 B per reading on ingestion, and in envelopes what core's splitter writes (EnvelopeShape); 9 RU upsert + 9 RU TTL
/// delete per reading, 22 RU per device patch; 800 B stored + 4 index terms x 16 B per reading; handler 15 µs
/// (splitter) / 114 µs (processor) + host 32 µs per reading over two hops; 200 readings per event; 32 partitions per
/// Standard hub; 20 % headroom, 70 % CPU utilisation.
/// </summary>
public sealed class PlannerTests
{
    [Fact]
    public void Plan_AThousandReadingsPerSecond_OneThroughputUnitAndOneSmallInstancePerFunction()
    {
        var plan = Repository.Plan(1_000);

        // 1,000 x 291 B = 0.291 MB/s, x 1.2 = 0.35 MB/s -> 1 TU; 5 + 2 x 5 envelope events/s, far below 1,000.
        Assert.Equal("Standard", plan.EventHubs.Tier);
        Assert.Equal(1, plan.EventHubs.Capacity);
        Assert.Equal(32, plan.EventHubs.PartitionsPerHub);
        // readings: 1,000 x (9 + 9) = 18,000 RU/s, x 1.2 = 21,600; devices: 1,000 x 22 = 22,000, x 1.2 = 26,400.
        Assert.Equal(18_000, plan.Cosmos.Container("readings").DemandRu, 6);
        Assert.Equal(21_600, plan.Cosmos.Container("readings").DeployedRu);
        Assert.Equal(26_400, plan.Cosmos.Container("devices").DeployedRu);
        // Stored: 1,000 x 604,800 s x (800 + 64 B of index) = 522.5 GB -> 11 partitions of 50 GB (RU/s alone: 3 of 10,000).
        Assert.Equal(11, plan.Cosmos.Container("readings").PhysicalPartitions);
        // Splitter 1,000 x (15 + 16) µs = 0.031 cores; processors 500 x (114 + 16) µs = 0.065: one 2 GB instance each.
        Assert.Equal(2048, plan.Functions.InstanceMemoryMB);
        Assert.All(plan.Functions.Functions, f => Assert.Equal(1, f.Instances));
        // One instance may own all 32 partitions: 400 MB + 32 x 4 events x 14.5 MB > 85 % of 2 GB, so batches stay 2.
        Assert.Equal(2, plan.Functions.Batching.MaxEventBatchSize);
        Assert.False(plan.IsPlanOnly);
    }

    [Fact]
    public void Plan_AHundredThousandReadingsPerSecond_StandardTuPerContainerRuAndInstancesByCpu()
    {
        var plan = Repository.Plan(100_000);

        // 100,000 x (122 + E) B, E the envelope bytes per reading core's splitter writes (~130, protobuf bytes), x 1.2 / 1 MB/s
        // per TU -> 31 TU; events: 500 ingestion + 2 x 1,024 envelope events/s (below) x 1.2 -> 4 TU, not binding.
        var envelopeBytes = plan.Functions.Envelopes.EnvelopeBytesPerReading;
        Assert.InRange(envelopeBytes, 122, 145);
        Assert.Equal("Standard", plan.EventHubs.Tier);
        Assert.Equal((int)Math.Ceiling(100_000 * (122 + envelopeBytes) / 1e6 * 1.2), plan.EventHubs.Capacity);
        Assert.Equal(31, plan.EventHubs.Capacity);
        Assert.Equal(40, plan.EventHubs.AutoInflateMaximum);
        Assert.Equal(100_000 * (122 + envelopeBytes) / 1e6, plan.EventHubs.IngressMBps, 6);
        // readings 1,800,000 RU/s -> 2,160,000; devices 2,200,000 -> 2,640,000; archive autoscale to 10 % x 100,000 x 9.
        Assert.Equal(2_160_000, plan.Cosmos.Container("readings").DeployedRu);
        Assert.Equal(2_640_000, plan.Cosmos.Container("devices").DeployedRu);
        Assert.Equal(90_000, plan.Cosmos.Container("archive").DeployedRu);
        Assert.Equal("autoscale", plan.Cosmos.Container("archive").Kind);
        // 100,000 x 604,800 x 864 B = 52,255 GB / 50 = 1,046 partitions for storage (216 for 2,160,000 RU/s); devices:
        // 264 for its RU/s.
        Assert.Equal(1_046, plan.Cosmos.Container("readings").PhysicalPartitions);
        Assert.Equal(264, plan.Cosmos.Container("devices").PhysicalPartitions);
        Assert.NotNull(plan.Cosmos.Container("readings").Note);
        // Splitter 3.1 cores / 0.7 / 2 cores = 2.2 -> 3 instances of 4 GB; processors 6.5 / 0.7 / 2 = 4.6 -> 5 each.
        Assert.Equal(4096, plan.Functions.InstanceMemoryMB);
        Assert.Equal(3, plan.Functions.Function("Splitter").Instances);
        Assert.Equal(5, plan.Functions.Function("WeatherProcessor").Instances);
        Assert.Equal(5, plan.Functions.Function("SeismicProcessor").Instances);
        Assert.Equal(96, plan.Functions.MaximumInstanceCount);
        // 11 partitions per splitter instance: 400 + 11 x 16 x 14.5 = 2,952 MB <= 3,482 (32 would not fit) -> 16.
        Assert.Equal(16, plan.Functions.Batching.MaxEventBatchSize);
        // 500 events/s over 32 partitions fill 15.6 per 1 s wait: 3,125 readings, ~1,562 per kind over 32 partitions, so
        // the splitter sends one envelope per partition and kind: 64 per invocation of ~49 readings (not 250 each).
        var envelopes = plan.Functions.Envelopes;
        Assert.Equal(15.625, envelopes.EventsPerInvocation, 6);
        Assert.InRange(envelopes.EnvelopesPerInvocation, 63.9, 64);
        Assert.InRange(envelopes.ReadingsPerEnvelope, 48.8, 48.9);
        // 32 invocations/s x 64 / 2 hubs = 1,024 envelope events/s per hub; 16 per processor invocation (1,024 / 32 per
        // partition per 1 s, capped at the batch). Threshold: min(500 x 5 s / 3, 1,024 x 5 s / 5) = 833.3 -> 834.
        Assert.Equal(32 * envelopes.EnvelopesPerInvocation / 2, plan.Functions.Function("WeatherProcessor").EventsPerSecond, 6);
        Assert.Equal(16, plan.Functions.Function("WeatherProcessor").EventsPerInvocation, 6);
        Assert.Equal(834, plan.Functions.Batching.TargetUnprocessedEventThreshold);
        Assert.Equal(32 + (2 * 32 * envelopes.EnvelopesPerInvocation / 2 / 16), plan.Functions.InvocationsPerSecond, 6);
    }

    [Theory]
    [InlineData(2, 40, 4, 1)] // host.json as shipped: minEventBatchSize 1, the host does not wait for a second event
    [InlineData(1, 400, 4, 1)]
    [InlineData(8, 40, 4, 8)] // min = the batch: 10 events a partition arrive within the 1 s wait, capped at 8
    [InlineData(8, 12, 4, 3)]
    [InlineData(16, 2, 4, 1)]
    public void EventsPerInvocation_MinimumBatchOneOrTheBatch_DispatchedAtOnceOrFilledForTheWait(int batch, double eventsPerSecond, int partitions, double expected) =>
        Assert.Equal(expected, Model.FunctionsPlanner.EventsPerInvocation(eventsPerSecond, partitions, batch), 6);

    [Fact]
    public void Plan_BatchOfEight_AboutTwentyFiveReadingsPerEnvelopeAndEightTimesTheEvents()
    {
        // The checked-in profile's shape: 8 events of 200 readings per splitter invocation over 32 partitions per hub.
        var shape = Model.EnvelopeShape.Of(8, 200, 100_000, 32);

        // 800 readings per kind over 32 partitions: every partition gets some ((31/32)^800 ~ 0 that one gets none), so
        // 64 envelopes of 1,600 / 64 = 25 readings, where 250 per envelope would give 8.
        Assert.Equal(1_600, shape.ReadingsPerInvocation, 6);
        Assert.Equal(64, shape.EnvelopesPerInvocation, 6);
        Assert.Equal(25, shape.ReadingsPerEnvelope, 6);
    }

    [Fact]
    public void EnvelopeShape_FewerReadingsThanPartitions_OneEnvelopePerPartitionThatGotAReading()
    {
        // One event of 20 readings over 32 partitions: 10 per kind, each on its own partition unless two devices share
        // one, so at most 20 envelopes and never fewer than 2.
        var shape = Model.EnvelopeShape.Of(1, 20, 100_000, 32);

        Assert.InRange(shape.EnvelopesPerInvocation, 14, 20);
        Assert.Equal(20, shape.ReadingsPerInvocation, 6);
        // Fractional events per invocation are interpolated between the whole numbers on either side.
        var half = Model.EnvelopeShape.Of(1.5, 20, 100_000, 32);
        Assert.Equal(30, half.ReadingsPerInvocation, 6);
        Assert.InRange(half.EnvelopesPerInvocation, shape.EnvelopesPerInvocation, Model.EnvelopeShape.Of(2, 20, 100_000, 32).EnvelopesPerInvocation);
    }

    [Fact]
    public void Plan_AHundredThousandReadingsPerSecondWithWindows_NoTtlDeletesAndEveryOlderWindowAtItsMinimum()
    {
        var ttl = Repository.Plan(100_000);
        var plan = Model.Planner.Plan(new Model.PlanRequest(100_000, 200, 100_000, 7, false, false, Model.Expiry.Windows), Repository.Defaults(), Repository.Prices());

        // The written window: 100,000 x 9 RU = 900,000 RU/s (no TTL delete), x 1.2 = 1,080,000.
        Assert.Equal(900_000, plan.Cosmos.Container("readings").DemandRu, 6);
        Assert.Equal(1_080_000, plan.Cosmos.Container("readings").DeployedRu);
        // A 1-day window stores 100,000 x 86,400 x 864 B = 7,465 GB; its minimum is the largest of 400, 7,465 x 1 and
        // 1,080,000 / 100 = 10,800 RU/s; 7 older windows: 75,600 RU/s at $0.008 per 100 RU/s-hour = $6.048/h.
        var older = plan.Cosmos.Containers.Single(c => c.Name.StartsWith("readings, 7 older windows", StringComparison.Ordinal));
        Assert.Equal(75_600, older.DeployedRu);
        Assert.Equal(6.048, older.CostPerHour, 6);
        // Up to 8 days of readings stored instead of 7: one window more.
        Assert.Equal(ttl.Cosmos.StorageGb + 7_464.96, plan.Cosmos.StorageGb, 3);
        // RU per reading: 9 + 22 (TTL: 9 + 9 + 22).
        Assert.Equal(31, plan.Cosmos.RuPerReading(100_000), 6);
        Assert.Equal(40, ttl.Cosmos.RuPerReading(100_000), 6);
        Assert.True(plan.TotalPerHour < ttl.TotalPerHour);
    }

    [Fact]
    public void Plan_AMillionReadingsPerSecond_PlanOnlyNamingTheLimitAndTheWayOut()
    {
        var plan = Repository.Plan(1_000_000);

        // 1,000,000 x (122 + E) B x 1.2 / 5 MB/s per PU, E what core's splitter writes per reading -> 62 PU; one Premium
        // namespace takes 16.
        Assert.True(plan.IsPlanOnly);
        Assert.Equal("Premium", plan.EventHubs.Tier);
        Assert.Equal((int)Math.Ceiling((122 + plan.Functions.Envelopes.EnvelopeBytesPerReading) * 1.2 / 5), plan.EventHubs.Capacity);
        Assert.Equal(62, plan.EventHubs.Capacity);
        Assert.Contains("at most 16", plan.EventHubs.PlanOnlyReason, StringComparison.Ordinal);
        Assert.Contains("Dedicated", plan.EventHubs.PlanOnlyReason, StringComparison.Ordinal);
        Assert.Contains("4 Premium namespaces", plan.EventHubs.PlanOnlyReason, StringComparison.Ordinal);
        // Busiest hub 122 MB/s x 1.2 -> 147 partitions, capped at Premium's 100.
        Assert.Equal(100, plan.EventHubs.PartitionsPerHub);
        Assert.Equal(21_600_000, plan.Cosmos.Container("readings").DeployedRu);
        // Splitter 31 cores / 0.7 / 2 = 22.1 -> 23; processors 65 / 0.7 / 2 = 46.4 -> 47.
        Assert.Equal(23, plan.Functions.Function("Splitter").Instances);
        Assert.Equal(47, plan.Functions.Function("WeatherProcessor").Instances);
    }

    [Theory]
    [InlineData(114, 13)]
    [InlineData(228, 21)]
    [InlineData(456, 37)]
    public void Plan_ProcessorCpuSensitivity_InstancesGrowWithTheProcessorsCpu(double processorMicros, int instances)
    {
        var costs = Repository.Defaults().With("cpu.processorMicros", processorMicros, "test");
        var plan = Model.Planner.Plan(new Model.PlanRequest(100_000, 200, 100_000, 7, false, false), costs, Repository.Prices());

        // Splitter (15 + 16) µs x 100,000 -> 3; processors (p + 16) µs x 50,000 each; / 0.7 / 2 cores, rounded up.
        Assert.Equal(instances, plan.Functions.Instances);
    }

    [Theory]
    [InlineData(1, 2_160_000)]
    [InlineData(4, 2_304_000)]
    [InlineData(8, 2_496_000)]
    public void Plan_SpatialTermsSensitivity_EachTermCostsOnTheWriteAndTheTtlDelete(double terms, int readingsRu)
    {
        var plan = Model.Planner.Plan(new Model.PlanRequest(100_000, 200, 100_000, 7, false, false), Repository.Defaults().WithSpatialTerms(terms), Repository.Prices());

        // 100,000 x (9 + 9 + 2 x 0.2 x (terms - 1)) RU/s x 1.2: 4 terms 19.2 RU per reading, 8 terms 20.8.
        Assert.Equal(readingsRu, plan.Cosmos.Container("readings").DeployedRu);
        // Each term more also stores 16 B of index per reading.
        Assert.Equal(800 + (16 * (3 + terms)), Model.CosmosPlanner.StoredBytes(Repository.Defaults().WithSpatialTerms(terms)), 6);
    }

    [Fact]
    public void Plan_Private_PricesFourEndpointsAndTheBytesThatCrossThem()
    {
        var request = new Model.PlanRequest(100_000, 200, 100_000, 7, false, false, Private: true);
        var plan = Model.Planner.Plan(request, Repository.Defaults(), Repository.Prices());
        var open = Repository.Plan(100_000);

        // Event Hubs: (122 + E) B per reading in and out again; Cosmos DB: 800 B stored + 0.102 device states of 730 B.
        var pl = plan.PrivateLink!;
        Assert.Equal(2 * 100_000 * (122 + plan.Functions.Envelopes.EnvelopeBytesPerReading) * 3600 / 1e9, pl.EventHubsGbPerHour, 6);
        Assert.Equal(100_000 * (800 + (0.102 * 730)) * 3600 / 1e9, pl.CosmosGbPerHour, 6);
        Assert.Equal((4 * 0.01) + (pl.GbPerHour * 0.01), pl.CostPerHour, 6);
        Assert.Equal(open.TotalPerHour + pl.CostPerHour, plan.TotalPerHour, 6);
        Assert.Equal(open.FunctionsStorageInsightsPerHour, plan.FunctionsStorageInsightsPerHour, 6);
        Assert.Null(open.PrivateLink);
    }

    [Fact]
    public void Plan_RangeCpu_TheManyRangeFigureAboveOnePartitionTheOneRangeFigureAtOne()
    {
        var ranges = Repository.Ranges();
        var costs = Repository.Defaults().WithRanges(ranges);

        var big = Model.Planner.Plan(new Model.PlanRequest(100_000, 200, 100_000, 7, false, false), costs, Repository.Prices());
        var tiny = Model.Planner.Plan(new Model.PlanRequest(1, 200, 1, 0.01, false, false), costs, Repository.Prices());

        Assert.Equal(ranges.ManyRangesNetMicros, big.Costs.ProcessorCpuMicros);
        var partitions = big.Cosmos.Container("readings").PhysicalPartitions;
        Assert.Contains(partitions > ranges.Ranges ? "EXTRAPOLATED" : "conservative below", big.Costs.SourceOf("cpu.processorMicros"), StringComparison.Ordinal);
        Assert.Equal(1, tiny.Cosmos.Container("readings").PhysicalPartitions);
        Assert.Equal(ranges.OneRangeNetMicros, tiny.Costs.ProcessorCpuMicros);
    }

    [Fact]
    public void Plan_ReservedAndZones_ScaleTheProvisionedRuPriceOnly()
    {
        var plain = Repository.Plan(100_000);
        var priced = Model.Planner.Plan(new Model.PlanRequest(100_000, 200, 100_000, 7, Reserved: true, Zones: true), Repository.Defaults(), Repository.Prices());

        Assert.Equal(plain.Cosmos.Container("readings").DeployedRu, priced.Cosmos.Container("readings").DeployedRu);
        Assert.Equal(plain.Cosmos.Container("readings").CostPerHour * 0.80 * 1.25, priced.Cosmos.Container("readings").CostPerHour, 6);
        Assert.Equal(plain.EventHubs.CostPerHour, priced.EventHubs.CostPerHour, 6);
    }

    [Fact]
    public void Plan_AHundredThousandReadingsPerSecond_EveryDiagnosticLogCategoryPricedFromItsRows()
    {
        var plan = Repository.Plan(100_000);
        var logs = plan.Diagnostics;
        double Cost(double rowsPerHour) => rowsPerHour * 700 / 1e9 * 2.30; // 700 B per row (assumed), $2.30 per GB

        // The audit categories log what people and deployments do, never what a reading does: no row per hour at any rate.
        foreach (var audit in new[] { "OperationalLogs", "StorageDelete", "audit", "ControlPlaneRequests" })
        {
            Assert.True(logs.Category(audit).On, audit);
            Assert.Equal(0, logs.Category(audit).RowsPerHour);
        }

        // Standard has no runtime audit log; the plan says so rather than pricing it.
        Assert.Null(logs.Categories.SingleOrDefault(c => c.Category == "RuntimeAuditLogs"));

        // A row per Cosmos DB request: 100,000 upserts + 100,000 device patches per second.
        Assert.False(logs.Category("DataPlaneRequests").On);
        Assert.Equal(200_000 * 3600.0, logs.Category("DataPlaneRequests").RowsPerHour, 6);
        Assert.Equal(1_159.2, logs.Category("DataPlaneRequests").CostPerHour, 6);

        // A row per partition key and operation per second: each device writes once a second, so nothing aggregates.
        Assert.False(logs.Category("PartitionKeyRUConsumption").On);
        Assert.Equal(200_000 * 3600.0, logs.Category("PartitionKeyRUConsumption").RowsPerHour, 6);

        // A row per storage request: every checkpoint and ownership claim is a write, every ownership listing a read.
        var checkpoints = plan.Functions.InvocationsPerSecond / plan.Functions.Batching.BatchCheckpointFrequency * 3600;
        var ownership = 3 * 32 * 3600 / 10.0;
        Assert.False(logs.Category("StorageWrite").On);
        Assert.Equal(checkpoints + ownership, logs.Category("StorageWrite").RowsPerHour, 6);
        Assert.Equal(Cost(checkpoints + ownership), logs.Category("StorageWrite").CostPerHour, 6);
        Assert.Equal(ownership, logs.Category("StorageRead").RowsPerHour, 6);

        // What is on costs nothing here, so the total is the components'.
        Assert.Equal(0, logs.OnCostPerHour);
    }

    [Fact]
    public void Plan_PremiumRate_RuntimeAuditLogsOnAggregatedPerMinutePerClientAndOperation()
    {
        var plan = Repository.Plan(200_000);

        Assert.Equal("Premium", plan.EventHubs.Tier);
        var runtime = plan.Diagnostics.Category("RuntimeAuditLogs");
        Assert.True(runtime.On);
        // Each splitter instance receives one hub and sends to two, each processor instance receives one: 60 rows an hour each.
        var clientOperations = 3 * plan.Functions.Function("Splitter").Instances
            + plan.Functions.Function("WeatherProcessor").Instances + plan.Functions.Function("SeismicProcessor").Instances;
        Assert.Equal(60.0 * clientOperations, runtime.RowsPerHour, 6);
        Assert.Equal(runtime.CostPerHour, plan.Diagnostics.OnCostPerHour, 6);
    }
}
