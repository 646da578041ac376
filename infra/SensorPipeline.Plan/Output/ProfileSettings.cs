using System.Globalization;
using SensorPipeline.Plan.Model;

namespace SensorPipeline.Plan.Output;

/// <summary>
/// The azd environment values of a plan: each maps to a main.bicep parameter through infra/main.parameters.json,
/// except HOST_EVENTHUBS_*, which ./pipeline package writes into the packaged host.json (the file the Functions host
/// and the scale controller read). Demand lines are comments, so the Bicep tests can check capacity against them.
/// </summary>
internal static class ProfileSettings
{
    /// <summary>Every key a plan writes; <see cref="AzdEnvironment"/> replaces exactly these.</summary>
    public static IReadOnlyList<string> Keys { get; } =
    [
        "PIPELINE_PROFILE", "NETWORK_ISOLATION", "EVENTHUBS_SKU", "EVENTHUBS_CAPACITY", "EVENTHUBS_MAX_THROUGHPUT_UNITS", "EVENTHUBS_PARTITION_COUNT",
        "COSMOS_THROUGHPUT_MODE", "COSMOS_READINGS_THROUGHPUT", "COSMOS_DEVICES_THROUGHPUT", "COSMOS_ARCHIVE_AUTOSCALE_MAX",
        "COSMOS_DEADLETTERS_AUTOSCALE_MAX", "COSMOS_ZONE_REDUNDANT", "COSMOS_REQUEST_LOGS", "COSMOS_PARTITION_KEY_LOGS",
        "STORAGE_REQUEST_LOGS", "READINGS_TTL_SECONDS",
        "FUNCTIONS_INSTANCE_MEMORY_MB", "FUNCTIONS_MAXIMUM_INSTANCE_COUNT", "FUNCTIONS_ALWAYS_READY_SPLITTER",
        "FUNCTIONS_ALWAYS_READY_PROCESSOR", "HOST_EVENTHUBS_MAX_EVENT_BATCH_SIZE",
        "HOST_EVENTHUBS_MIN_EVENT_BATCH_SIZE", "HOST_EVENTHUBS_MAX_WAIT_TIME", "HOST_EVENTHUBS_PREFETCH_COUNT",
        "HOST_EVENTHUBS_BATCH_CHECKPOINT_FREQUENCY", "HOST_EVENTHUBS_TARGET_UNPROCESSED_EVENT_THRESHOLD",
    ];

    /// <summary>The first line of the block a plan writes; comment lines of the block start with "# plan" or "# demand".</summary>
    public const string CommentPrefix = "# plan";

    public static IReadOnlyList<KeyValuePair<string, string>> Values(PlanResult plan)
    {
        var eh = plan.EventHubs;
        var cosmos = plan.Cosmos;
        var fn = plan.Functions;
        var b = fn.Batching;
        var values = new Dictionary<string, string>
        {
            ["PIPELINE_PROFILE"] = $"plan-{plan.Request.Rate.ToString("0", CultureInfo.InvariantCulture)}{(plan.Request.Private ? "-private" : "")}",
            ["NETWORK_ISOLATION"] = plan.Request.Private ? "private" : "public",
            ["EVENTHUBS_SKU"] = eh.Tier,
            ["EVENTHUBS_CAPACITY"] = I(eh.Capacity),
            ["EVENTHUBS_MAX_THROUGHPUT_UNITS"] = I(eh.AutoInflateMaximum),
            ["EVENTHUBS_PARTITION_COUNT"] = I(eh.PartitionsPerHub),
            ["COSMOS_THROUGHPUT_MODE"] = "provisioned",
            ["COSMOS_READINGS_THROUGHPUT"] = I(cosmos.Container("readings").DeployedRu),
            ["COSMOS_DEVICES_THROUGHPUT"] = I(cosmos.Container("devices").DeployedRu),
            ["COSMOS_ARCHIVE_AUTOSCALE_MAX"] = I(cosmos.Container("archive").DeployedRu),
            ["COSMOS_DEADLETTERS_AUTOSCALE_MAX"] = I(cosmos.Container("deadletters").DeployedRu),
            ["COSMOS_ZONE_REDUNDANT"] = plan.Request.Zones ? "true" : "false",
            ["COSMOS_REQUEST_LOGS"] = Sent(plan, "DataPlaneRequests"),
            ["COSMOS_PARTITION_KEY_LOGS"] = Sent(plan, "PartitionKeyRUConsumption"),
            ["STORAGE_REQUEST_LOGS"] = Sent(plan, "StorageWrite"),
            ["READINGS_TTL_SECONDS"] = plan.Request.RetentionDays > 0 ? I((int)Math.Round(plan.Request.RetentionDays * 86_400)) : "-1",
            ["FUNCTIONS_INSTANCE_MEMORY_MB"] = I(fn.InstanceMemoryMB),
            ["FUNCTIONS_MAXIMUM_INSTANCE_COUNT"] = I(fn.MaximumInstanceCount),
            ["FUNCTIONS_ALWAYS_READY_SPLITTER"] = I(fn.Function("Splitter").Instances),
            // Every processor is planned alike (one per kind, an equal share of the readings): one setting for all.
            ["FUNCTIONS_ALWAYS_READY_PROCESSOR"] = I(fn.Functions.Where(f => f.Name != "Splitter").Max(f => f.Instances)),
            ["HOST_EVENTHUBS_MAX_EVENT_BATCH_SIZE"] = I(b.MaxEventBatchSize),
            ["HOST_EVENTHUBS_MIN_EVENT_BATCH_SIZE"] = I(b.MinEventBatchSize),
            ["HOST_EVENTHUBS_MAX_WAIT_TIME"] = b.MaxWaitTime.ToString("c", CultureInfo.InvariantCulture),
            ["HOST_EVENTHUBS_PREFETCH_COUNT"] = I(b.PrefetchCount),
            ["HOST_EVENTHUBS_BATCH_CHECKPOINT_FREQUENCY"] = I(b.BatchCheckpointFrequency),
            ["HOST_EVENTHUBS_TARGET_UNPROCESSED_EVENT_THRESHOLD"] = I(b.TargetUnprocessedEventThreshold),
        };
        return Keys.Select(k => KeyValuePair.Create(k, values[k])).ToArray();
    }

    /// <summary>The block of lines a plan writes: a header, the demand it was sized for, then KEY="value" lines.</summary>
    public static IReadOnlyList<string> Lines(PlanResult plan, string command)
    {
        var r = plan.Request;
        var lines = new List<string>
        {
            $"{CommentPrefix}: {command}",
            $"{CommentPrefix}: {r.Rate:N0} readings/s, {r.ReadingsPerEvent} readings per event, {r.Devices:N0} devices, {r.RetentionDays:0.##}-day retention, {(r.Private ? "private" : "public")} network",
            Demand("EVENTHUBS_INGRESS_MBPS", plan.EventHubs.IngressMBps),
            Demand("EVENTHUBS_INGRESS_EVENTS_PER_SECOND", plan.EventHubs.IngressEventsPerSecond),
            Demand("COSMOS_READINGS_RU", plan.Cosmos.Container("readings").DemandRu),
            Demand("COSMOS_DEVICES_RU", plan.Cosmos.Container("devices").DemandRu),
            Demand("FUNCTIONS_SPLITTER_VCPU", plan.Functions.Function("Splitter").Vcpu),
            Demand("FUNCTIONS_PROCESSOR_VCPU", plan.Functions.Processor.Vcpu),
        };
        lines.AddRange(Values(plan).Select(kv => $"{kv.Key}=\"{kv.Value}\""));
        return lines;
    }

    private static string Demand(string name, double value) =>
        $"# demand {name}={value.ToString("0.###", CultureInfo.InvariantCulture)}";

    private static string Sent(PlanResult plan, string category) => plan.Diagnostics.Category(category).On ? "true" : "false";

    private static string I(int value) => value.ToString(CultureInfo.InvariantCulture);
}
