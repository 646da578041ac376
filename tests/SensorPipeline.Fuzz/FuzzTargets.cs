using SensorPipeline.Fuzz.Targets;

namespace SensorPipeline.Fuzz;

/// <summary>Every target, by name: one per parser that reads bytes from outside the process.</summary>
internal static class FuzzTargets
{
    public static IReadOnlyList<FuzzTarget> All { get; } =
    [
        ReadingBatchTarget.Target,
        EnvelopeTarget.Target,
        HandlerRequestTarget.Target,
        EventHubsBatchTarget.Target,
        EventHubsLogTarget.Target,
        AmqpMessageTarget.Target,
        CosmosBatchTarget.Target,
        CosmosJsonTarget.Target,
        CosmosSqlTarget.Target,
        CosmosLogTarget.Target,
        TrackTarget.Target,
    ];

    /// <summary>The target named <paramref name="name"/>, or null.</summary>
    public static FuzzTarget? Find(string name) => All.FirstOrDefault(t => t.Name == name);
}
