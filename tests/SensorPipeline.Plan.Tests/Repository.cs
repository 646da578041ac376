using SensorPipeline.Plan.Data;
using SensorPipeline.Plan.Model;

namespace SensorPipeline.Plan.Tests;

/// <summary>The repository's own data files: the tests plan with the checked-in prices and per-reading defaults.</summary>
internal static class Repository
{
    public static string Root { get; } = FindRoot();

    public static PriceBook Prices() => PriceBook.Load(Path.Combine(Root, "infra", "prices"), "eastus");

    public static ReadingCosts Defaults() => ReadingCosts.Load(Path.Combine(Root, "infra", "SensorPipeline.Plan", "per-reading.defaults.json"), null);

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
