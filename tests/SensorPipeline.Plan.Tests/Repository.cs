using SensorPipeline.Plan.Data;
using SensorPipeline.Plan.Model;

namespace SensorPipeline.Plan.Tests;

/// <summary>The repository's own data files: the tests plan with the checked-in prices and the tests' fixed per-reading
/// inputs (fixed-inputs.json), which the arithmetic in the tests is written out from.</summary>
internal static class Repository
{
    public static string Root { get; } = FindRoot();

    public static PriceBook Prices() => PriceBook.Load(Path.Combine(Root, "infra", "prices"), "eastus");

    /// <summary>The tests' fixed inputs: 9 RU per reading created and per TTL delete, 22 per device patch, 800 B stored.</summary>
    public static string FixedInputsFile { get; } = Path.Combine(Root, "tests", "SensorPipeline.Plan.Tests", "fixed-inputs.json");

    public static ReadingCosts Defaults() => ReadingCosts.Load(FixedInputsFile, null);

    /// <summary>The checked-in processor CPU by partition key ranges (./pipeline bench functions ranges).</summary>
    public static string RangesDefaultsFile { get; } = Path.Combine(Root, "infra", "SensorPipeline.Plan", "ranges.defaults.json");

    public static RangeCpu Ranges() => RangeCpu.Load(RangesDefaultsFile, Path.Combine(Root, "no-such-dir", "bench-ranges.json"));

    /// <summary>The checked-in defaults ./pipeline plan uses when no bench has run (they follow ./pipeline bench cost).</summary>
    public static ReadingCosts CheckedInDefaults() =>
        ReadingCosts.Load(Path.Combine(Root, "infra", "SensorPipeline.Plan", "per-reading.defaults.json"), null).WithRanges(Ranges());

    public static PlanResult Plan(double rate) =>
        Planner.Plan(new PlanRequest(rate, 200, rate, 7, Reserved: false, Zones: false), Defaults(), Prices());

    private static string FindRoot()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
        {
            if (File.Exists(Path.Combine(dir.FullName, "SensorPipeline.slnx")))
            {
                return dir.FullName;
            }
        }

        throw new InvalidOperationException("SensorPipeline.slnx not found above " + AppContext.BaseDirectory);
    }
}
