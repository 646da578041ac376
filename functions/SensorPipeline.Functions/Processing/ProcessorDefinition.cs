using SensorPipeline.Core.Readings;
using SensorPipeline.Protos;

namespace SensorPipeline.Functions.Processing;

/// <summary>One processor function: its route, the envelope kind it accepts and the stage name in its dead letters.</summary>
internal sealed record ProcessorDefinition(string Name, SensorKind Kind, string Stage)
{
    /// <summary>The trigger binding's name in function.json.</summary>
    public const string TriggerName = "events";

    /// <summary>One processor per kind of sensor-kinds.json: named after its function folder, its consumer group the stage.</summary>
    public static IReadOnlyList<ProcessorDefinition> All { get; } =
        [.. SensorKindCatalog.Default.All.Select(static k => new ProcessorDefinition(k.Processor, k.Kind, k.ConsumerGroup))];

    /// <summary>The processor of <paramref name="kind"/>.</summary>
    public static ProcessorDefinition Of(SensorKind kind) => All.Single(p => p.Kind == kind);
}
