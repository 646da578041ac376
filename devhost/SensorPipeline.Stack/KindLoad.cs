using SensorPipeline.Core.Readings;

namespace SensorPipeline.Stack;

/// <summary>
/// What the demo and chaos runs ask of loadgen for the kinds of sensor-kinds.json, so a kind added there is loaded,
/// paused and verified with no edit here: devices of every kind, and every kind's processor to pause.
/// </summary>
internal static class KindLoad
{
    /// <summary>loadgen's arguments for <paramref name="perKind"/> devices of every kind.</summary>
    public static string[] DeviceArguments(int perKind) => ["--devices-per-kind", perKind.ToString(CultureInfo.InvariantCulture)];

    /// <summary>loadgen's arguments that pause every kind's processor (the backlog episode).</summary>
    public static IEnumerable<string> PauseArguments(RepoLayout layout) => Processors(layout).SelectMany(static p => new[] { "--pause-function", p });

    /// <summary>Every kind's processor function, in the catalog's order.</summary>
    /// <exception cref="InvalidOperationException">Naming the function.json a kind of the catalog lacks.</exception>
    public static IReadOnlyList<string> Processors(RepoLayout layout)
    {
        ArgumentNullException.ThrowIfNull(layout);
        return [.. SensorKindCatalog.Default.All.Select(kind =>
        {
            var path = layout.File("functions", kind.Processor, "function.json");
            return File.Exists(path)
                ? kind.Processor
                : throw new InvalidOperationException($"{path} is missing: sensor-kinds.json lists the kind '{kind.Name}' with the processor '{kind.Processor}' (docs/adding-a-sensor-kind.md).");
        })];
    }
}
