using System.Text.Json;
using SensorKind = SensorPipeline.Protos.SensorKind;

namespace SensorPipeline.Core.Readings;

/// <summary>
/// The sensor kinds the pipeline routes, read from <c>sensor-kinds.json</c> (embedded in this assembly; Bicep, the plan
/// and the tests read the same file). Lookups by kind number and payload field are array reads: no allocation.
/// </summary>
public sealed class SensorKindCatalog
{
    /// <summary>The file's name, as embedded and as it lies in core/SensorPipeline.Core/.</summary>
    public const string FileName = "sensor-kinds.json";

    // Kind numbers and payload fields index small arrays; the proto keeps both well below these bounds.
    private const int MaxKindNumber = 1023;
    private const int MaxPayloadField = 1023;

    private readonly SensorKindDefinition?[] _byKind;
    private readonly bool[] _isPayloadField;

    private SensorKindCatalog(IReadOnlyList<SensorKindDefinition> kinds)
    {
        All = kinds;
        _byKind = new SensorKindDefinition?[kinds.Max(static k => (int)k.Kind) + 1];
        _isPayloadField = new bool[kinds.Max(static k => k.PayloadField) + 1];
        foreach (var kind in kinds)
        {
            _byKind[(int)kind.Kind] = kind;
            _isPayloadField[kind.PayloadField] = true;
        }
    }

    /// <summary>The catalog the product runs with: the embedded <c>sensor-kinds.json</c>.</summary>
    public static SensorKindCatalog Default { get; } = LoadEmbedded();

    /// <summary>Every kind, in the file's order.</summary>
    public IReadOnlyList<SensorKindDefinition> All { get; }

    /// <summary>The kind's definition; null for unspecified or a number the catalog does not hold.</summary>
    public SensorKindDefinition? Find(SensorKind kind) => (uint)kind < (uint)_byKind.Length ? _byKind[(int)kind] : null;

    /// <summary>The kind's definition.</summary>
    /// <exception cref="ArgumentOutOfRangeException">For a kind the catalog does not hold.</exception>
    public SensorKindDefinition Get(SensorKind kind) =>
        Find(kind) ?? throw new ArgumentOutOfRangeException(nameof(kind), kind, $"one of {string.Join(", ", All.Select(static k => $"{k.Name} ({(int)k.Kind})"))}");

    /// <summary>True when <paramref name="field"/> is a payload field of some kind in <c>Reading</c>.</summary>
    public bool IsPayloadField(int field) => (uint)field < (uint)_isPayloadField.Length && _isPayloadField[field];

    /// <summary>Parses a catalog; <paramref name="source"/> names the file in errors.</summary>
    /// <exception cref="InvalidDataException">Naming the file and the member that is wrong.</exception>
    public static SensorKindCatalog Parse(string json, string source)
    {
        ArgumentNullException.ThrowIfNull(json);
        try
        {
            using var document = JsonDocument.Parse(json);
            if (!document.RootElement.TryGetProperty("kinds", out var kinds) || kinds.ValueKind != JsonValueKind.Array || kinds.GetArrayLength() == 0)
            {
                throw new InvalidDataException($"{source}: \"kinds\" must be a non-empty array.");
            }

            var list = kinds.EnumerateArray().Select((k, i) => ParseKind(k, $"{source}: kinds[{i}]")).ToList();
            CheckDistinct(list, source);
            return new SensorKindCatalog(list);
        }
        catch (Exception e) when (e is JsonException or InvalidOperationException or FormatException or KeyNotFoundException)
        {
            throw new InvalidDataException($"{source}: {e.Message}", e);
        }
    }

    private static SensorKindDefinition ParseKind(JsonElement k, string at)
    {
        var name = Text(k, "name", at);
        var kind = k.GetProperty("kind").GetInt32();
        var field = k.GetProperty("payloadField").GetInt32();
        if (kind is < 1 or > MaxKindNumber || field is < 6 or > MaxPayloadField)
        {
            throw new InvalidDataException($"{at} ({name}): kind must be 1 to {MaxKindNumber} and payloadField 6 to {MaxPayloadField} (1 to 5 are the reading's own fields).");
        }

        var measurements = k.GetProperty("measurements").EnumerateArray()
            .Select(m => new MeasurementDefinition(Text(m, "name", at), m.GetProperty("min").GetDouble(), m.GetProperty("max").GetDouble()))
            .ToList();
        if (measurements.Count is 0 or > SensorKindDefinition.MaxMeasurements || measurements.Any(static m => !(m.Min <= m.Max)))
        {
            throw new InvalidDataException($"{at} ({name}): 1 to {SensorKindDefinition.MaxMeasurements} measurements, each with min <= max.");
        }

        return new SensorKindDefinition(name, (SensorKind)kind, field, Text(k, "processor", at), Text(k, "hub", at),
            Text(k, "consumerGroup", at), Text(k, "hubSetting", at), measurements);
    }

    private static string Text(JsonElement element, string member, string at) =>
        element.TryGetProperty(member, out var value) && value.ValueKind == JsonValueKind.String && value.GetString() is { Length: > 0 } text
            ? text
            : throw new InvalidDataException($"{at}: \"{member}\" must be a non-empty string.");

    private static void CheckDistinct(List<SensorKindDefinition> kinds, string source)
    {
        foreach (var (what, key) in new (string, Func<SensorKindDefinition, object>)[]
                 {
                     ("name", static k => k.Name), ("kind", static k => k.Kind), ("payloadField", static k => k.PayloadField),
                     ("processor", static k => k.Processor), ("hub", static k => k.Hub), ("hubSetting", static k => k.HubSetting),
                 })
        {
            if (kinds.GroupBy(key).FirstOrDefault(static g => g.Count() > 1) is { } repeated)
            {
                throw new InvalidDataException($"{source}: two kinds share the {what} {repeated.Key}.");
            }
        }
    }

    private static SensorKindCatalog LoadEmbedded()
    {
        using var stream = typeof(SensorKindCatalog).Assembly.GetManifestResourceStream(FileName)
            ?? throw new InvalidOperationException($"{FileName} is not embedded in {typeof(SensorKindCatalog).Assembly.GetName().Name}.");
        using var reader = new StreamReader(stream);
        return Parse(reader.ReadToEnd(), $"core/SensorPipeline.Core/{FileName}");
    }
}
