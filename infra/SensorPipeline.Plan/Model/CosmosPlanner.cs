namespace SensorPipeline.Plan.Model;

/// <summary>
/// Cosmos DB: throughput per container (never one shared database budget). <c>readings</c> and <c>devices</c> carry
/// a flat load, so manual RU/s with headroom (autoscale bills 1.5x for the same peak); <c>archive</c> and
/// <c>deadletters</c> see bursts (a backlog's stale readings, poison), so autoscale, billed at least 10 % of its maximum.
/// </summary>
internal static class CosmosPlanner
{
    /// <summary>Manual RU/s above the demand.</summary>
    public const double Headroom = 0.20;

    /// <summary>Share of readings the archive must take at once after a backlog (its autoscale maximum).</summary>
    public const double ArchiveBurstShare = 0.10;

    private const double Hours = 730;

    public static CosmosPlan Plan(PlanRequest request, ReadingCosts costs, PriceBook book, FunctionsPlan functions)
    {
        var autoscalePrice = book.Price("cosmos.autoscale.hundredRuHour") / 100 * Multiplier(request, book);
        var ruPrice = RuPrice(request, book);
        var windows = request.Expiry == Expiry.Windows && request.RetentionDays > 0;
        var readingsGb = ReadingsGb(request, costs);
        var devicesGb = request.Devices * costs.DeviceStateBytes / 1e9;

        // A device's state is written once per processor invocation that holds a reading of it: with more devices of a
        // kind than readings per invocation, that is once per reading.
        var processor = functions.Processor;
        var readingsPerInvocation = processor.ReadingsPerSecond / processor.InvocationsPerSecond;
        var deviceWrites = Math.Min(1, request.Devices / functions.Kinds / readingsPerInvocation);

        var archiveDemand = request.Rate * costs.StaleFraction * costs.ArchiveUpsertRu;
        var readings = Readings(request, costs, book);
        var containers = new List<ContainerPlan>
        {
            readings,
            Manual("devices", request.Rate * deviceWrites * costs.DevicePatchRu, devicesGb, ruPrice, book),
            Autoscale("archive", archiveDemand, Math.Max(archiveDemand, request.Rate * ArchiveBurstShare * costs.ArchiveUpsertRu), autoscalePrice, book),
            Autoscale("deadletters", 0, 0, autoscalePrice, book),
        };
        if (windows)
        {
            var live = request.Rate * (1 - costs.StaleFraction);
            containers.Insert(1, OldWindows(request, live * request.WindowDays * 86_400 * StoredBytes(costs) / 1e9, readings.DeployedRu, ruPrice, book));
        }

        var storageGb = readingsGb + devicesGb;
        // What the diagnostic logs see: a request per upsert and patch; a (partition key, operation) pair per second per
        // device that wrote, at most once a second each (PartitionKeyRUConsumption aggregates per second).
        var requests = new CosmosRequests(
            request.Rate * (1 + deviceWrites),
            Math.Min(request.Devices, request.Rate) + Math.Min(request.Devices, request.Rate * deviceWrites));
        return new CosmosPlan(containers, storageGb, storageGb * book.Price("cosmos.storage.gbMonth") / Hours, requests);
    }

    /// <summary>The readings container alone (the one written): its RU/s and physical partitions follow from the rate and
    /// the stored bytes, not from the functions, so the plan knows its partition key ranges first.</summary>
    public static ContainerPlan Readings(PlanRequest request, ReadingCosts costs, PriceBook book)
    {
        var live = request.Rate * (1 - costs.StaleFraction);
        var windows = request.Expiry == Expiry.Windows && request.RetentionDays > 0;
        var ttlDelete = request.RetentionDays > 0 && !windows ? costs.TtlDeleteRu : 0;
        var readingsGb = ReadingsGb(request, costs);
        return Manual("readings", live * (costs.ReadingUpsertRu + ttlDelete),
            windows ? readingsGb * request.WindowDays / (request.RetentionDays + request.WindowDays) : readingsGb, RuPrice(request, book), book);
    }

    /// <summary>Bytes a reading takes in the store: the document as stored and its index entries (an assumption).</summary>
    public static double StoredBytes(ReadingCosts costs) => costs.StoredReadingBytes + costs.IndexBytesPerReading;

    /// <summary>GB of readings stored over the retention (windows: up to one window more, dropped only once all past it).</summary>
    private static double ReadingsGb(PlanRequest request, ReadingCosts costs)
    {
        var windows = request.Expiry == Expiry.Windows && request.RetentionDays > 0;
        var storedSeconds = (request.RetentionDays + (windows ? request.WindowDays : 0)) * 86_400;
        return request.Rate * (1 - costs.StaleFraction) * storedSeconds * StoredBytes(costs) / 1e9;
    }

    private static double RuPrice(PlanRequest request, PriceBook book) => book.Price("cosmos.provisioned.hundredRuHour") / 100 * Multiplier(request, book);

    private static double Multiplier(PlanRequest request, PriceBook book) =>
        (request.Reserved ? book.Price("cosmos.reserved.oneYearMultiplier") : 1) * (request.Zones ? book.Price("cosmos.zoneRedundancy.multiplier") : 1);

    private static ContainerPlan Manual(string name, double demand, double storageGb, double pricePerRu, PriceBook book)
    {
        var deployed = (int)Math.Max(book.Limit("cosmos.minManualRu"), Math.Ceiling(demand * (1 + Headroom) / 100) * 100);
        var limit = book.LimitEntry("cosmos.maxRuPerContainer");
        var note = deployed > limit.Value
            ? $"{deployed:N0} RU/s is above the {limit.Value:N0} RU/s per container Azure allows without a support ticket: ask for the increase before azd up ({limit.Source}, {limit.Date})"
            : null;
        return new ContainerPlan(name, demand, "manual", deployed, PhysicalPartitions(deployed, storageGb, book), storageGb, deployed * pricePerRu, note);
    }

    /// <summary>The windows no longer written but still inside the retention, each at the minimum RU/s a manual container
    /// may be lowered to: the maximum of 400 RU/s, 1 RU/s per GB stored and a hundredth of the highest RU/s it ever had
    /// (the written window's, concepts-limits). They serve queries, not writes.</summary>
    private static ContainerPlan OldWindows(PlanRequest request, double windowGb, int writtenRu, double pricePerRu, PriceBook book)
    {
        var count = (int)Math.Ceiling(request.RetentionDays / request.WindowDays);
        var minimum = Math.Ceiling(Math.Max(book.Limit("cosmos.minManualRu"),
            Math.Max(windowGb * book.Limit("cosmos.minManualRuPerGb"), writtenRu * book.Limit("cosmos.minManualRuShareOfHighest"))) / 100) * 100;
        var deployed = (int)(count * minimum);
        var note = count + 3 > book.Limit("cosmos.maxContainersPerAccount")
            ? $"{count} windows and 3 other containers are more than the {book.Limit("cosmos.maxContainersPerAccount"):N0} containers an account may hold: take longer windows"
            : null;
        return new ContainerPlan($"readings, {count} older windows of {request.WindowDays:0.##} d at {minimum:N0} RU/s minimum", 0, "manual", deployed,
            count * PhysicalPartitions(writtenRu, windowGb, book), count * windowGb, deployed * pricePerRu, note);
    }

    private static ContainerPlan Autoscale(string name, double demand, double burst, double pricePerRu, PriceBook book)
    {
        var maximum = (int)Math.Max(book.Limit("cosmos.minAutoscaleMaxRu"), Math.Ceiling(burst / 1000) * 1000);
        // Billed at the hour's highest RU/s, at least 10 % of the maximum.
        var billed = Math.Max(maximum * 0.1, demand);
        return new ContainerPlan(name, demand, "autoscale", maximum, PhysicalPartitions(maximum, 0, book), 0, billed * pricePerRu, null);
    }

    private static int PhysicalPartitions(int ru, double storageGb, PriceBook book) =>
        (int)Math.Max(1, Math.Max(Math.Ceiling(ru / book.Limit("cosmos.maxRuPerPhysicalPartition")), Math.Ceiling(storageGb / book.Limit("cosmos.maxGbPerPhysicalPartition"))));
}
