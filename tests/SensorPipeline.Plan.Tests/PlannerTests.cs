namespace SensorPipeline.Plan.Tests;

/// <summary>
/// The plan at 1,000 / 100,000 / 1,000,000 readings/s against arithmetic written out here from the checked-in inputs:
/// 122 B per reading on ingestion + 169 B per reading in envelopes; 9 RU upsert + 9 RU TTL delete per reading, 22 RU
/// per device patch; handler 15 µs (splitter) / 114 µs (processor) + host 32 µs per reading over two hops; 200
/// readings per event; 32 partitions per Standard hub; 20 % headroom, 70 % CPU utilisation.
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
        // Stored: 1,000 x 604,800 s x 800 B = 483.8 GB -> 10 partitions of 50 GB (RU/s alone: 3 of 10,000).
        Assert.Equal(10, plan.Cosmos.Container("readings").PhysicalPartitions);
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

        // 100,000 x 291 B = 29.1 MB/s, x 1.2 = 34.92 -> 35 TU (events: 500 + 448 = 948/s, x 1.2 -> 2 TU, not binding).
        Assert.Equal("Standard", plan.EventHubs.Tier);
        Assert.Equal(35, plan.EventHubs.Capacity);
        Assert.Equal(40, plan.EventHubs.AutoInflateMaximum);
        Assert.Equal(29.1, plan.EventHubs.IngressMBps, 6);
        Assert.Equal(948, plan.EventHubs.IngressEventsPerSecond, 6);
        // readings 1,800,000 RU/s -> 2,160,000; devices 2,200,000 -> 2,640,000; archive autoscale to 10 % x 100,000 x 9.
        Assert.Equal(2_160_000, plan.Cosmos.Container("readings").DeployedRu);
        Assert.Equal(2_640_000, plan.Cosmos.Container("devices").DeployedRu);
        Assert.Equal(90_000, plan.Cosmos.Container("archive").DeployedRu);
        Assert.Equal("autoscale", plan.Cosmos.Container("archive").Kind);
        // 48,384 GB / 50 = 968 partitions for storage (216 for 2,160,000 RU/s); devices: 264 for its RU/s.
        Assert.Equal(968, plan.Cosmos.Container("readings").PhysicalPartitions);
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
        // 500 events/s over 32 partitions fill 15.6 per 1 s wait; 1,562 readings per kind -> 7 envelopes per kind per
        // invocation -> 224 envelope events/s per hub, 7 per processor invocation. Threshold: 224 x 5 s / 5 instances.
        Assert.Equal(224, plan.Functions.Batching.TargetUnprocessedEventThreshold);
        Assert.Equal(500 / 15.625 + (2 * 224 / 7.0), plan.Functions.InvocationsPerSecond, 6);
    }

    [Fact]
    public void Plan_AHundredThousandReadingsPerSecondWithWindows_NoTtlDeletesAndEveryOlderWindowAtItsMinimum()
    {
        var ttl = Repository.Plan(100_000);
        var plan = Model.Planner.Plan(new Model.PlanRequest(100_000, 200, 100_000, 7, false, false, Model.Expiry.Windows), Repository.Defaults(), Repository.Prices());

        // The written window: 100,000 x 9 RU = 900,000 RU/s (no TTL delete), x 1.2 = 1,080,000.
        Assert.Equal(900_000, plan.Cosmos.Container("readings").DemandRu, 6);
        Assert.Equal(1_080_000, plan.Cosmos.Container("readings").DeployedRu);
        // A 1-day window stores 100,000 x 86,400 x 800 B = 6,912 GB; its minimum is the largest of 400, 6,912 x 1 and
        // 1,080,000 / 100 = 10,800 RU/s; 7 older windows: 75,600 RU/s at $0.008 per 100 RU/s-hour = $6.048/h.
        var older = plan.Cosmos.Containers.Single(c => c.Name.StartsWith("readings, 7 older windows", StringComparison.Ordinal));
        Assert.Equal(75_600, older.DeployedRu);
        Assert.Equal(6.048, older.CostPerHour, 6);
        // Up to 8 days of readings stored (55,296 GB) instead of 7 (48,384 GB): one window more.
        Assert.Equal(ttl.Cosmos.StorageGb + 6_912, plan.Cosmos.StorageGb, 3);
        // RU per reading: 9 + 22 (TTL: 9 + 9 + 22).
        Assert.Equal(31, plan.Cosmos.RuPerReading(100_000), 6);
        Assert.Equal(40, ttl.Cosmos.RuPerReading(100_000), 6);
        Assert.True(plan.TotalPerHour < ttl.TotalPerHour);
    }

    [Fact]
    public void Plan_AMillionReadingsPerSecond_PlanOnlyNamingTheLimitAndTheWayOut()
    {
        var plan = Repository.Plan(1_000_000);

        // 291 MB/s x 1.2 / 5 MB/s per PU = 69.84 -> 70 PU; one Premium namespace takes 16.
        Assert.True(plan.IsPlanOnly);
        Assert.Equal("Premium", plan.EventHubs.Tier);
        Assert.Equal(70, plan.EventHubs.Capacity);
        Assert.Contains("at most 16", plan.EventHubs.PlanOnlyReason, StringComparison.Ordinal);
        Assert.Contains("Dedicated", plan.EventHubs.PlanOnlyReason, StringComparison.Ordinal);
        Assert.Contains("5 Premium namespaces", plan.EventHubs.PlanOnlyReason, StringComparison.Ordinal);
        // Busiest hub 122 MB/s x 1.2 -> 147 partitions, capped at Premium's 100.
        Assert.Equal(100, plan.EventHubs.PartitionsPerHub);
        Assert.Equal(21_600_000, plan.Cosmos.Container("readings").DeployedRu);
        // Splitter 31 cores / 0.7 / 2 = 22.1 -> 23; processors 65 / 0.7 / 2 = 46.4 -> 47.
        Assert.Equal(23, plan.Functions.Function("Splitter").Instances);
        Assert.Equal(47, plan.Functions.Function("WeatherProcessor").Instances);
    }

    [Theory]
    [InlineData(32, 13)]
    [InlineData(64, 16)]
    [InlineData(128, 20)]
    public void Plan_HostCpuSensitivity_InstancesGrowWithTheHostsCpu(double hostMicros, int instances)
    {
        var plan = Model.Planner.Plan(new Model.PlanRequest(100_000, 200, 100_000, 7, false, false), Repository.Defaults().WithHostCpuMicros(hostMicros), Repository.Prices());

        // Splitter (15 + h/2) µs x 100,000, processors (114 + h/2) µs x 50,000 each; / 0.7 / 2 cores, rounded up.
        Assert.Equal(instances, plan.Functions.Instances);
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
