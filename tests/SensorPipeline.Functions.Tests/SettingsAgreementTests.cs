using System.Globalization;
using System.Reflection;
using System.Text.RegularExpressions;
using SensorPipeline.Functions.Options;
using SensorPipeline.Functions.Telemetry;

namespace SensorPipeline.Functions.Tests;

/// <summary>
/// The handler's options and docs/conventions.md name the same settings with the same defaults. The Bicep side of the
/// same table is checked by infra/tests/settings.test.mjs, so together the handler, the Bicep, function.json and
/// host.json cannot drift apart.
/// </summary>
[Trait("Category", "Fast")]
public sealed partial class SettingsAgreementTests
{
    // Options bound from the platform's standard names rather than Section__Property.
    private static readonly Dictionary<string, string> StandardNames = new(StringComparer.Ordinal)
    {
        ["Telemetry__ConnectionString"] = TelemetryOptions.ConnectionStringSetting,
        ["Telemetry__AuthenticationString"] = TelemetryOptions.AuthenticationStringSetting,
    };

    // Options bound from the settings the Functions host reads for the triggers: listed in the hubs section instead.
    private static readonly Dictionary<string, string> HubSettings = new(StringComparer.Ordinal)
    {
        ["Forwarding__ConnectionString"] = ForwardingOptions.ConnectionKey,
        ["Forwarding__FullyQualifiedNamespace"] = "EventHubConnection__fullyQualifiedNamespace",
        ["Forwarding__ClientId"] = "EventHubConnection__clientId",
    };

    public static TheoryData<Type, string> OptionTypes => new()
    {
        { typeof(ForwardingOptions), ForwardingOptions.Section },
        { typeof(PipelineOptions), PipelineOptions.Section },
        { typeof(CosmosOptions), CosmosOptions.Section },
        { typeof(TelemetryOptions), TelemetryOptions.Section },
    };

    [Theory]
    [MemberData(nameof(OptionTypes))]
    public void ConventionsTable_EveryOption_ListedWithItsDefault(Type options, string section)
    {
        var table = ConventionsTable();
        var defaults = Activator.CreateInstance(options)!;
        foreach (var property in options.GetProperties(BindingFlags.Public | BindingFlags.Instance).Where(p => p.CanWrite))
        {
            if (HubSettings.TryGetValue($"{section}__{property.Name}", out var hubSetting))
            {
                Assert.Contains("`" + hubSetting, HubsSection(), StringComparison.Ordinal);
                continue;
            }

            var setting = StandardNames.TryGetValue($"{section}__{property.Name}", out var standard) ? standard : $"{section}__{property.Name}";
            Assert.True(table.TryGetValue(setting, out var documented), $"{setting} (the handler's {options.Name}.{property.Name}) is not in docs/conventions.md");
            var value = property.GetValue(defaults);
            if (value is null || documented.StartsWith('(') || documented.Length == 0)
            {
                continue; // required or unset by default: the table says so in words
            }

            Assert.Equal(Normalize(documented), Normalize(Format(value)));
        }
    }

    [Fact]
    public void PipelineLimits_LimitsJson_TheCompiledConstantsAreTheFilesValues()
    {
        // The packaging script and the planner read limits.json; the handler reads the constants generated from it.
        using var limits = System.Text.Json.JsonDocument.Parse(File.ReadAllBytes(Path.Combine(RepoLayout.Current.Root, "core", "SensorPipeline.Core", "limits.json")));
        int Value(string name) => limits.RootElement.GetProperty(name).GetProperty("value").GetInt32();

        Assert.Equal(Core.PipelineLimits.EventHubMaxEventBytes, Value("eventHubMaxEventBytes"));
        Assert.Equal(Core.PipelineLimits.MaxEventBatchSize, Value("maxEventBatchSize"));
        Assert.Equal(Core.PipelineLimits.MaxReadingsPerEnvelope, Value("maxReadingsPerEnvelope"));
        Assert.Equal(Core.PipelineLimits.MaxEventBatchSize, Core.Splitting.EnvelopeBudget.MaxSupportedBatchSize);
    }

    [Fact]
    public void ConventionsTable_EveryHandlerSetting_IsAnOption()
    {
        var known = OptionTypes.Select(row => ((Type)row[0], (string)row[1]))
            .SelectMany(t => t.Item1.GetProperties().Select(p => $"{t.Item2}__{p.Name}"))
            .ToHashSet(StringComparer.Ordinal);
        var documented = ConventionsTable().Keys.Where(k => k.StartsWith("Pipeline__", StringComparison.Ordinal) || k.StartsWith("Cosmos__", StringComparison.Ordinal));
        Assert.All(documented, setting => Assert.Contains(setting, known));
    }

    private static string HubsSection()
    {
        var text = File.ReadAllText(Path.Combine(RepoLayout.Current.Root, "docs", "conventions.md"));
        var start = text.IndexOf("## Hubs and consumer groups", StringComparison.Ordinal);
        return text[start..text.IndexOf("\n## ", start + 3, StringComparison.Ordinal)];
    }

    private static Dictionary<string, string> ConventionsTable()
    {
        var text = File.ReadAllText(Path.Combine(RepoLayout.Current.Root, "docs", "conventions.md"));
        var table = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (Match row in Row().Matches(text))
        {
            table.TryAdd(row.Groups[1].Value, row.Groups[2].Value.Trim().Trim('`'));
        }

        return table;
    }

    private static string Format(object value) => value switch
    {
        TimeSpan span => span.ToString("c", CultureInfo.InvariantCulture),
        bool flag => flag ? "true" : "false",
        IFormattable number => number.ToString(null, CultureInfo.InvariantCulture),
        _ => value.ToString() ?? "",
    };

    private static string Normalize(string value) => value.TrimEnd('0').TrimEnd('.');

    [GeneratedRegex(@"^\| `([A-Za-z]+__[A-Za-z]+|APPLICATIONINSIGHTS_[A-Z_]+)` \| ([^|]*) \|", RegexOptions.Multiline)]
    private static partial Regex Row();
}
