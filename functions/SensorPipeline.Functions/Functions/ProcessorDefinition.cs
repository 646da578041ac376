namespace SensorPipeline.Functions.Functions;

/// <summary>One processor function: its route, the envelope kind it accepts and the stage name in its dead letters.</summary>
internal sealed record ProcessorDefinition(string Name, int Kind, string Stage)
{
    public static readonly ProcessorDefinition Weather = new("WeatherProcessor", 1, "weather-processor");
    public static readonly ProcessorDefinition Seismic = new("SeismicProcessor", 2, "seismic-processor");

    /// <summary>The trigger binding's name in function.json.</summary>
    public const string TriggerName = "events";
}
