using System.Text.Json;

namespace SensorPipeline.Plan.Data;

/// <summary>One price or limit of the data file, with where it comes from.</summary>
internal sealed record DataEntry(string Key, double Value, IReadOnlyList<double> Values, string Unit, bool Verified, string Source, string Region, string Date);

/// <summary>
/// The prices and limits of one region, read from <c>infra/prices/&lt;region&gt;.json</c>: the only place the plan takes
/// a price or a limit from. Remembers which prices the plan used, so the output can mark the unverified ones.
/// </summary>
internal sealed class PriceBook
{
    private readonly Dictionary<string, DataEntry> _prices;
    private readonly Dictionary<string, DataEntry> _limits;
    private readonly SortedSet<string> _used = new(StringComparer.Ordinal);

    private PriceBook(string file, string region, string regionName, Dictionary<string, DataEntry> prices, Dictionary<string, DataEntry> limits)
    {
        File = file;
        Region = region;
        RegionName = regionName;
        _prices = prices;
        _limits = limits;
    }

    public string File { get; }
    public string Region { get; }
    public string RegionName { get; }

    /// <summary>The prices read so far that the file marks unverified.</summary>
    public IEnumerable<DataEntry> UsedUnverified => _used.Select(k => _prices[k]).Where(e => !e.Verified);

    public bool IsVerified(string key) => Entry(_prices, key, "prices").Verified;

    public double Price(string key)
    {
        var entry = Entry(_prices, key, "prices");
        _used.Add(key);
        return entry.Value;
    }

    public double Limit(string key) => Entry(_limits, key, "limits").Value;

    public IReadOnlyList<double> LimitValues(string key) => Entry(_limits, key, "limits").Values;

    /// <summary>A limit with its source and date, for the output's origins.</summary>
    public DataEntry LimitEntry(string key) => Entry(_limits, key, "limits");

    /// <summary>A price with its source and date, without marking it used (the bill's other charges, outside the total).</summary>
    public DataEntry PriceEntry(string key) => Entry(_prices, key, "prices");

    private DataEntry Entry(Dictionary<string, DataEntry> section, string key, string name) =>
        section.TryGetValue(key, out var entry) ? entry : throw new PlanDataException($"{File}: {name}.{key} is missing.");

    /// <summary>Loads <c>&lt;directory&gt;/&lt;region&gt;.json</c>; a region without a file is refused, naming the regions that have one.</summary>
    public static PriceBook Load(string directory, string region)
    {
        var file = Path.Combine(directory, region + ".json");
        if (!System.IO.File.Exists(file))
        {
            var known = Directory.Exists(directory)
                ? string.Join(", ", Directory.GetFiles(directory, "*.json").Select(Path.GetFileNameWithoutExtension).Order(StringComparer.Ordinal))
                : "none";
            throw new PlanDataException(
                $"no prices for region '{region}': {file} does not exist. Sourced regions: {known}. Add {region}.json with the same entries, each with its source address, region and date, before planning there.");
        }

        using var doc = JsonDocument.Parse(System.IO.File.ReadAllText(file));
        var root = doc.RootElement;
        var fileRegion = DataFile.String(root, "region", file);
        if (!string.Equals(fileRegion, region, StringComparison.Ordinal))
        {
            throw new PlanDataException($"{file}: region is '{fileRegion}', expected '{region}' (the file name).");
        }

        return new PriceBook(file, region, DataFile.String(root, "regionName", file),
            ReadSection(root, "prices", file, requireVerified: true), ReadSection(root, "limits", file, requireVerified: false));
    }

    private static Dictionary<string, DataEntry> ReadSection(JsonElement root, string name, string file, bool requireVerified)
    {
        if (!root.TryGetProperty(name, out var section) || section.ValueKind != JsonValueKind.Object)
        {
            throw new PlanDataException($"{file}: '{name}' must be an object of entries.");
        }

        var entries = new Dictionary<string, DataEntry>(StringComparer.Ordinal);
        foreach (var p in section.EnumerateObject())
        {
            var where = $"{name}.{p.Name}";
            var values = p.Value.TryGetProperty("values", out var list)
                ? list.EnumerateArray().Select(v => v.GetDouble()).ToArray()
                : [];
            var value = values.Length > 0 ? values[0] : DataFile.Number(p.Value, "value", file, where);
            var verified = !requireVerified || DataFile.Bool(p.Value, "verified", file, where);
            entries[p.Name] = new DataEntry(p.Name, value, values, DataFile.String(p.Value, "unit", file, where), verified,
                DataFile.String(p.Value, "source", file, where), DataFile.String(p.Value, "region", file, where), DataFile.String(p.Value, "date", file, where));
        }

        return entries;
    }
}
