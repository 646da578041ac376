using SensorPipeline.Core.Readings;

namespace SensorPipeline.Devices;

/// <summary>
/// How each kind's devices behave. A kind with a model of its own here gets it (weather drifts with its climate,
/// seismometers have events); any other kind of sensor-kinds.json gets a <see cref="RangeDevice"/> that wanders inside
/// the measurement ranges the file gives, so a new kind is simulated without code.
/// </summary>
public static class DeviceModels
{
    private static readonly Dictionary<string, Func<SensorKindDefinition, string, Random, SimulatedDevice>> Models = new(StringComparer.Ordinal)
    {
        ["weather"] = static (kind, id, random) => new WeatherDevice(id, kind.Kind, random),
        ["seismic"] = static (kind, id, random) => new SeismicDevice(id, kind.Kind, random),
    };

    /// <summary>The kinds with a model of their own.</summary>
    public static IReadOnlyCollection<string> Modelled => Models.Keys;

    public static SimulatedDevice Create(SensorKindDefinition kind, string id, Random random) =>
        Models.TryGetValue(kind.Name, out var model) ? model(kind, id, random) : new RangeDevice(kind, id, random);
}
