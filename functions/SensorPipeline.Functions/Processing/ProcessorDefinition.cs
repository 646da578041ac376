using SensorPipeline.Protos;

namespace SensorPipeline.Functions.Processing;

/// <summary>One processor function: its route, the envelope kind it accepts and the stage name in its dead letters.</summary>
internal sealed record ProcessorDefinition(string Name, SensorKind Kind, string Stage)
{
    public static readonly ProcessorDefinition Weather = new("WeatherProcessor", SensorKind.Weather, "weather-processor");
    public static readonly ProcessorDefinition Seismic = new("SeismicProcessor", SensorKind.Seismic, "seismic-processor");

    /// <summary>The trigger binding's name in function.json.</summary>
    public const string TriggerName = "events";
}
