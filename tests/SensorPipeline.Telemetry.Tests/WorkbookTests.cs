using System.Text.RegularExpressions;

namespace SensorPipeline.Telemetry.Tests;

/// <summary>The workbook as code: every chart's query is a .kql file that monitoring.bicep embeds, and the queries name
/// metrics the handler really sends.</summary>
[Trait("Category", "Fast")]
public sealed partial class WorkbookTests
{
    private static readonly string Repo = RepoLayout.Current.Root;
    private static readonly string WorkbookDir = Path.Combine(Repo, "infra", "workbook");
    private static readonly string Bicep = File.ReadAllText(Path.Combine(Repo, "infra", "app", "monitoring.bicep"));

    [Fact]
    public void MonitoringBicep_EveryKqlFile_Embedded()
    {
        var files = Directory.GetFiles(WorkbookDir, "*.kql").Select(f => Path.GetFileName(f)).Order().ToList();
        var embedded = LoadTextContent().Matches(Bicep).Select(m => m.Groups[1].Value).Order().ToList();

        Assert.NotEmpty(files);
        Assert.Equal(files, embedded);
        Assert.Contains("loadJsonContent('../workbook/workbook.json')", Bicep, StringComparison.Ordinal);
    }

    [Fact]
    public void Workbook_EveryQueryItem_HasItsKqlFile()
    {
        using var layout = JsonDocument.Parse(File.ReadAllText(Path.Combine(WorkbookDir, "workbook.json")));

        var names = layout.RootElement.GetProperty("queries").EnumerateArray().Select(q => q.GetProperty("name").GetString()!).ToList();

        Assert.Equal(9, names.Count);
        Assert.All(names, n => Assert.True(File.Exists(Path.Combine(WorkbookDir, n + ".kql")), $"{n}.kql is missing"));
        Assert.All(names, n => Assert.Contains($"'{n}': loadTextContent('../workbook/{n}.kql')", Bicep.Replace($"  {n}: load", $"  '{n}': load", StringComparison.Ordinal), StringComparison.Ordinal));
    }

    [Fact]
    public void Queries_EveryMetricName_OneTheHandlerSends()
    {
        var known = typeof(MetricNames).GetFields().Select(f => (string)f.GetValue(null)!).ToHashSet(StringComparer.Ordinal);
        var kql = string.Join('\n', Directory.GetFiles(WorkbookDir, "*.kql").Select(File.ReadAllText));

        var named = MetricName().Matches(kql).SelectMany(m => QuotedName().Matches(m.Value).Select(q => q.Groups[1].Value)).ToHashSet(StringComparer.Ordinal);

        Assert.NotEmpty(named);
        Assert.Subset(known, named);
        Assert.Contains(MetricNames.EndToEndMs, named);
        Assert.Contains(MetricNames.DeviceToStoreMs, named);
        Assert.Contains(MetricNames.FreshnessMs, named);
    }

    [Fact]
    public void PercentileQueries_EveryKqlFile_UseTheNearestRankSteps()
    {
        foreach (var file in new[] { "e2e-percentiles.kql", "device-to-store-percentiles.kql" })
        {
            var kql = File.ReadAllText(Path.Combine(WorkbookDir, file));
            Assert.Contains("""iff(Bucket == "inf", real(+inf), todouble(Bucket))""", kql, StringComparison.Ordinal);
            Assert.Contains("row_cumsum(Count", kql, StringComparison.Ordinal);
            // One item per function and period carries the histogram: its label:count pairs are expanded and summed per label.
            Assert.Contains("""mv-expand Pair = split(tostring(customDimensions.Buckets), ",")""", kql, StringComparison.Ordinal);
            Assert.Contains("sum(PairCount)", kql, StringComparison.Ordinal);
            foreach (var p in new[] { "0.5", "0.9", "0.99", "0.999" })
            {
                Assert.Contains($"Cumulative >= ceiling({p} * Total)", kql, StringComparison.Ordinal);
            }
        }
    }

    [Fact]
    public void Alerts_MonitoringBicep_QueryTheHandlerMetricNames()
    {
        Assert.Contains($"name == \"{MetricNames.FreshnessMs}\"", Bicep, StringComparison.Ordinal);
        Assert.Contains($"name == \"{MetricNames.DeadLetters}\"", Bicep, StringComparison.Ordinal);
    }

    [GeneratedRegex(@"loadTextContent\('\.\./workbook/([^']+\.kql)'\)")]
    private static partial Regex LoadTextContent();

    [GeneratedRegex(@"name (?:==|in) \([^)]*\)|name == ""[^""]+""|latencyMetric = ""[^""]+""")]
    private static partial Regex MetricName();

    [GeneratedRegex(@"""([A-Za-z]+)""")]
    private static partial Regex QuotedName();
}
