using System.Text.Json;

namespace SensorPipeline.Plan.Data;

/// <summary>
/// What one reading costs the pipeline: RU by operation, CPU by function, bytes on the hubs and in the store. From the
/// last <c>./pipeline bench cost</c> (<c>.pipeline/bench-cost.json</c>) when there is one, else the checked-in
/// defaults; a value the bench file lacks falls back to the default, and <see cref="SourceOf"/> says which.
/// </summary>
internal sealed class ReadingCosts
{
    private readonly Dictionary<string, (double Value, string Source)> _values;

    private ReadingCosts(Dictionary<string, (double, string)> values, string description)
    {
        _values = values;
        Description = description;
    }

    /// <summary>Where the values come from, for the output's first lines.</summary>
    public string Description { get; }

    public double ReadingUpsertRu => Get("ru.readingUpsert");
    public double TtlDeleteRu => Get("ru.ttlDelete");
    public double DevicePatchRu => Get("ru.devicePatch");
    public double ArchiveUpsertRu => Get("ru.archiveUpsert");
    public double SplitterCpuMicros => Get("cpu.splitterMicros");
    public double ProcessorCpuMicros => Get("cpu.processorMicros");
    public double HostCpuMicros => Get("cpu.hostMicros");
    public double ReadingBytes => Get("bytes.reading");
    public double EnvelopeBytesPerReading => Get("bytes.envelopePerReading");
    public double StoredReadingBytes => Get("bytes.storedReading");
    public double DeviceStateBytes => Get("bytes.deviceState");
    public double TelemetryBytesPerInstanceHour => Get("bytes.telemetryPerInstanceHour");
    public double StaleFraction => Get("fraction.stale");
    public double RequestLogRowBytes => Get("bytes.requestLogRow");

    public string SourceOf(string key) => _values[key].Source;

    /// <summary>The same costs with the host CPU per reading replaced (the sensitivity rows).</summary>
    public ReadingCosts WithHostCpuMicros(double micros)
    {
        var copy = new Dictionary<string, (double, string)>(_values) { ["cpu.hostMicros"] = (micros, "sensitivity row") };
        return new ReadingCosts(copy, Description);
    }

    private double Get(string key) => _values[key].Value;

    public static ReadingCosts Load(string defaultsFile, string? benchFile)
    {
        var values = Read(defaultsFile, required: true)!;
        var description = $"per-reading inputs: {defaultsFile} (no ./pipeline bench cost run)";
        var measured = benchFile is null ? null : Read(benchFile, required: false);
        if (measured is not null)
        {
            foreach (var (key, v) in measured)
            {
                if (!values.ContainsKey(key))
                {
                    throw new PlanDataException($"{benchFile}: values.{key} is not a per-reading input the plan knows ({string.Join(", ", values.Keys)}).");
                }

                values[key] = v;
            }

            description = $"per-reading inputs: {benchFile} (the last ./pipeline bench cost: {string.Join(", ", measured.Keys)}), the rest from {defaultsFile}";
        }

        return new ReadingCosts(values, description);
    }

    private static Dictionary<string, (double, string)>? Read(string file, bool required)
    {
        if (!File.Exists(file))
        {
            return required ? throw new PlanDataException($"{file} does not exist (the per-reading inputs of the plan).") : null;
        }

        using var doc = JsonDocument.Parse(File.ReadAllText(file));
        if (!doc.RootElement.TryGetProperty("values", out var section) || section.ValueKind != JsonValueKind.Object)
        {
            throw new PlanDataException($"{file}: 'values' must be an object of entries.");
        }

        var result = new Dictionary<string, (double, string)>(StringComparer.Ordinal);
        foreach (var p in section.EnumerateObject())
        {
            var value = DataFile.Number(p.Value, "value", file, "values." + p.Name);
            if (value < 0)
            {
                throw new PlanDataException($"{file}: values.{p.Name}.value must be at least 0, found {value}.");
            }

            result[p.Name] = (value, DataFile.String(p.Value, "from", file, "values." + p.Name));
        }

        return result;
    }
}
