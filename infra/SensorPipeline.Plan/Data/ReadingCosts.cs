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

    private ReadingCosts(Dictionary<string, (double, string)> values, string description, RangeCpu? ranges = null)
    {
        _values = values;
        Description = description;
        Ranges = ranges;
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
    public double StoredReadingBytes => Get("bytes.storedReading");
    public double DeviceStateBytes => Get("bytes.deviceState");
    public double TelemetryBytesPerInstanceHour => Get("bytes.telemetryPerInstanceHour");
    public double StaleFraction => Get("fraction.stale");
    public double DeviceStateWritesPerReading => Get("fraction.deviceStateWrites");
    public double RequestLogRowBytes => Get("bytes.requestLogRow");
    public double RuPerIndexTerm => Get("ru.perIndexTerm");
    public double SpatialTerms => Get("index.spatialTerms");
    public double IndexTermsPerReading => Get("index.termsPerReading");
    public double IndexBytesPerTerm => Get("bytes.indexPerTerm");

    /// <summary>Index bytes stored per reading (an assumption: the emulator does not report the service's index size).</summary>
    public double IndexBytesPerReading => IndexTermsPerReading * IndexBytesPerTerm;

    /// <summary>The processors' CPU per reading by partition key ranges, when loaded: it then replaces
    /// <see cref="ProcessorCpuMicros"/> at the plan's range count (<see cref="RangeCpu.For"/>).</summary>
    public RangeCpu? Ranges { get; }

    public string SourceOf(string key) => _values[key].Source;

    /// <summary>Every input with its value and where it comes from, in key order.</summary>
    public IEnumerable<(string Key, double Value, string Source)> Entries =>
        _values.OrderBy(kv => kv.Key, StringComparer.Ordinal).Select(kv => (kv.Key, kv.Value.Value, kv.Value.Source));

    /// <summary>The same costs with the processors' CPU per reading taken from <paramref name="ranges"/>.</summary>
    public ReadingCosts WithRanges(RangeCpu ranges) => new(_values, Description, ranges);

    /// <summary>The same costs with one input replaced (a sensitivity row or a figure chosen by the plan).</summary>
    public ReadingCosts With(string key, double value, string source)
    {
        var copy = new Dictionary<string, (double, string)>(_values) { [key] = (value, source) };
        return new ReadingCosts(copy, Description, key == "cpu.processorMicros" ? null : Ranges);
    }

    /// <summary>The same costs with the host CPU per reading replaced.</summary>
    public ReadingCosts WithHostCpuMicros(double micros) => With("cpu.hostMicros", micros, "sensitivity row");

    /// <summary>
    /// The same costs with <paramref name="terms"/> index terms per GeoJSON Point instead of <see cref="SpatialTerms"/>:
    /// each term more costs <see cref="RuPerIndexTerm"/> on the write and again on the TTL delete, and its bytes of index.
    /// </summary>
    public ReadingCosts WithSpatialTerms(double terms)
    {
        var extra = terms - SpatialTerms;
        var source = $"sensitivity row: {terms:0} terms per Point";
        return With("index.spatialTerms", terms, source)
            .With("index.termsPerReading", IndexTermsPerReading + extra, source)
            .With("ru.readingUpsert", ReadingUpsertRu + (extra * RuPerIndexTerm), source)
            .With("ru.ttlDelete", TtlDeleteRu + (extra * RuPerIndexTerm), source);
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
