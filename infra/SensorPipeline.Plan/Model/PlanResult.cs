namespace SensorPipeline.Plan.Model;

/// <summary>The Event Hubs namespace the plan deploys: one for all three hubs, unless <see cref="PlanOnlyReason"/>.</summary>
internal sealed record EventHubsPlan(
    string Tier,
    int Capacity,
    int AutoInflateMaximum,
    int PartitionsPerHub,
    double IngressMBps,
    double IngressEventsPerSecond,
    double CapacityMBps,
    double CostPerHour,
    string? PlanOnlyReason);

/// <summary>One Cosmos DB container: its demand and what is deployed for it (Kind: manual RU/s, or autoscale to DeployedRu).</summary>
internal sealed record ContainerPlan(string Name, double DemandRu, string Kind, int DeployedRu, int PhysicalPartitions, double StorageGb, double CostPerHour, string? Note);

internal sealed record CosmosPlan(IReadOnlyList<ContainerPlan> Containers, double StorageGb, double StorageCostPerHour, CosmosRequests Requests)
{
    public double ThroughputCostPerHour => Containers.Sum(c => c.CostPerHour);

    /// <summary>RU a reading costs at the steady rate: every container's demand (writes, and TTL deletes when readings
    /// expire by TTL) over the readings per second.</summary>
    public double RuPerReading(double rate) => Containers.Sum(c => c.DemandRu) / rate;
    public ContainerPlan Container(string name) => Containers.Single(c => c.Name == name);
}

/// <summary>
/// One function's share of the Flex Consumption app. Vcpu: cores the steady load keeps busy (before the utilisation
/// target); Instances: what that needs at the utilisation target, also its always-ready count; EventsPerInvocation:
/// events per invocation once batches fill for host.json's maxWaitTime.
/// </summary>
internal sealed record FunctionPlan(string Name, string Hub, double ReadingsPerSecond, double Vcpu, int Instances, double EventsPerSecond, double EventsPerInvocation, double InvocationsPerSecond, double CostPerHour);

/// <summary>host.json's <c>extensions.eventHubs</c> values the package gets (./pipeline package writes them).</summary>
internal sealed record Batching(int MaxEventBatchSize, int MinEventBatchSize, TimeSpan MaxWaitTime, int PrefetchCount, int BatchCheckpointFrequency, int TargetUnprocessedEventThreshold);

internal sealed record FunctionsPlan(int InstanceMemoryMB, double CoresPerInstance, int MaximumInstanceCount, Batching Batching, IReadOnlyList<FunctionPlan> Functions, double ExecutionsCostPerHour, string? Note, EventFlow Flow)
{
    /// <summary>The envelopes as core's splitter cuts them at the plan's batch.</summary>
    public EnvelopeShape Envelopes => Flow.Envelopes;

    /// <summary>Kinds of sensor, each with its hub and processor.</summary>
    public int Kinds => Flow.Kinds;

    public double InvocationsPerSecond => Functions.Sum(f => f.InvocationsPerSecond);
    public double InstanceCostPerHour => Functions.Sum(f => f.CostPerHour);
    public int Instances => Functions.Sum(f => f.Instances);
    public FunctionPlan Function(string name) => Functions.Single(f => f.Name == name);

    /// <summary>One processor's plan, standing for every kind's: the functions are the splitter first, then one
    /// processor per kind of the kind list, each planned alike for an equal share of the readings.</summary>
    public FunctionPlan Processor => Functions[1];
}

internal sealed record SmallPlan(string Demand, double CostPerHour);

/// <summary>One diagnostic log category: whether the plan's profile sends it, the rows it produces and what they cost.</summary>
internal sealed record LogCategoryPlan(string Resource, string Category, bool On, double RowsPerHour, double CostPerHour, string Rows);

internal sealed record DiagnosticsPlan(IReadOnlyList<LogCategoryPlan> Categories)
{
    /// <summary>The categories the profile sends: part of the total.</summary>
    public double OnCostPerHour => Categories.Where(c => c.On).Sum(c => c.CostPerHour);

    public LogCategoryPlan Category(string name) => Categories.Single(c => c.Category == name);
}

/// <summary>The whole plan: every component, the totals and the targets.</summary>
internal sealed record PlanResult(
    PlanRequest Request,
    EventHubsPlan EventHubs,
    CosmosPlan Cosmos,
    FunctionsPlan Functions,
    SmallPlan Checkpoints,
    SmallPlan Telemetry,
    DiagnosticsPlan Diagnostics,
    ReadingCosts Costs,
    PrivateLinkPlan? PrivateLink)
{
    /// <summary>The Functions host's CPU per reading this plan used.</summary>
    public double HostCpuMicros => Costs.HostCpuMicros;

    public double FunctionsCostPerHour => Functions.InstanceCostPerHour + Functions.ExecutionsCostPerHour;

    /// <summary>Functions + Storage + App Insights: the part the reference write-up priced ($5.54/h).</summary>
    public double FunctionsStorageInsightsPerHour => FunctionsCostPerHour + Checkpoints.CostPerHour + Telemetry.CostPerHour;

    public double TotalPerHour => EventHubs.CostPerHour + Cosmos.ThroughputCostPerHour + Cosmos.StorageCostPerHour + FunctionsStorageInsightsPerHour
        + Diagnostics.OnCostPerHour + (PrivateLink?.CostPerHour ?? 0);

    public double PerMillionReadings => TotalPerHour / (Request.Rate * 3600 / 1e6);

    public bool IsPlanOnly => EventHubs.PlanOnlyReason is not null;
}

/// <summary>
/// The private network choice's own charges: each private endpoint by the hour, and every GB that crosses one, priced
/// once in the direction it crosses (inbound and outbound are each a charge per GB). The bytes: Event Hubs' both hops in
/// and out (loadgen in the network sends, the functions receive and send), Cosmos DB's document and device-state writes;
/// request overheads, responses and Storage's checkpoints are left out.
/// </summary>
internal sealed record PrivateLinkPlan(int Endpoints, double EventHubsGbPerHour, double CosmosGbPerHour, double CostPerHour)
{
    public double GbPerHour => EventHubsGbPerHour + CosmosGbPerHour;
}
