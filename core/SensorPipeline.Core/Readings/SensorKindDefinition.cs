using System.Text.Json;
using SensorKind = SensorPipeline.Protos.SensorKind;

namespace SensorPipeline.Core.Readings;

/// <summary>One measurement of a kind: its name in the GeoJSON properties and the range loadgen simulates.</summary>
public sealed record MeasurementDefinition(string Name, double Min, double Max);

/// <summary>
/// One sensor kind as <c>sensor-kinds.json</c> defines it: everything the pipeline derives from a kind (its hub, its
/// processor, its payload's field and measurements) comes from here (docs/adding-a-sensor-kind.md).
/// </summary>
public sealed class SensorKindDefinition
{
    /// <summary>Most measurements a kind may have: <see cref="MeasurementValues"/> holds this many inline.</summary>
    public const int MaxMeasurements = MeasurementValues.Capacity;

    internal SensorKindDefinition(string name, SensorKind kind, int payloadField, string processor, string hub, string consumerGroup,
        string hubSetting, IReadOnlyList<MeasurementDefinition> measurements)
    {
        Name = name;
        Kind = kind;
        PayloadField = payloadField;
        Processor = processor;
        Hub = hub;
        ConsumerGroup = consumerGroup;
        HubSetting = hubSetting;
        Measurements = measurements;
        EncodedName = JsonEncodedText.Encode(name);
        EncodedMeasurementNames = [.. measurements.Select(static m => JsonEncodedText.Encode(m.Name))];
    }

    /// <summary>The kind's name in documents, ledgers and device ids (<c>weather</c>).</summary>
    public string Name { get; }

    /// <summary>The proto's <c>SensorKind</c> number.</summary>
    public SensorKind Kind { get; }

    /// <summary>The field number of the kind's message in the <c>Reading.payload</c> oneof.</summary>
    public int PayloadField { get; }

    /// <summary>The processor function's name, and its folder under <c>functions/</c> (<c>WeatherProcessor</c>).</summary>
    public string Processor { get; }

    /// <summary>The processor's input hub by default (<c>weather</c>); the app setting <see cref="HubSetting"/> overrides it.</summary>
    public string Hub { get; }

    /// <summary>The processor's consumer group on its hub (<c>weather-processor</c>); also its dead letters' stage.</summary>
    public string ConsumerGroup { get; }

    /// <summary>The app setting naming the hub, as function.json's <c>%WeatherHubName%</c> resolves it.</summary>
    public string HubSetting { get; }

    /// <summary>The app setting naming the consumer group the processor's trigger reads with
    /// (<see cref="ConsumerGroupSettingOf"/>: <c>%WeatherProcessorConsumerGroup%</c> in its function.json); set to
    /// <see cref="ConsumerGroup"/> in Azure and in local.settings.json, and to a group of its own by a local run against
    /// a deployed namespace.</summary>
    public string ConsumerGroupSetting => ConsumerGroupSettingOf(Processor);

    /// <summary>The app setting a function's trigger names its consumer group by: <c>&lt;function&gt;ConsumerGroup</c>
    /// (<c>SplitterConsumerGroup</c>, <c>WeatherProcessorConsumerGroup</c>), one rule for every function.</summary>
    public static string ConsumerGroupSettingOf(string function) => function + "ConsumerGroup";

    /// <summary>The payload message's measurements in field order: measurement i is field i + 1, a double.</summary>
    public IReadOnlyList<MeasurementDefinition> Measurements { get; }

    /// <summary><see cref="Name"/>, pre-encoded for <see cref="Utf8JsonWriter"/> on the hot path.</summary>
    public JsonEncodedText EncodedName { get; }

    /// <summary>The measurement names, pre-encoded, in field order.</summary>
    internal JsonEncodedText[] EncodedMeasurementNames { get; }

    public override string ToString() => Name;
}
