using System.Text.Json.Nodes;
using SensorPipeline.Core.Readings;

namespace SensorPipeline.Functions.Tests;

/// <summary>
/// The files a new kind adds beside its entry in sensor-kinds.json (docs/adding-a-sensor-kind.md): its function folder,
/// its local hub and its local hub setting. Each test fails when a kind is in the list but not in the file, or the
/// other way round.
/// </summary>
public class SensorKindFilesTests
{
    private static readonly string Root = RepoLayout.Current.Root;
    private static readonly IReadOnlyList<SensorKindDefinition> Kinds = SensorKindCatalog.Default.All;

    [Fact]
    public void FunctionFolders_EveryKind_HasItsProcessorsTrigger()
    {
        foreach (var kind in Kinds)
        {
            var path = Path.Combine(Root, "functions", kind.Processor, "function.json");
            Assert.True(File.Exists(path), $"{kind.Name}: functions/{kind.Processor}/function.json is missing (copy functions/WeatherProcessor/)");
            var trigger = Assert.Single(JsonNode.Parse(File.ReadAllText(path))!["bindings"]!.AsArray())!;
            Assert.Equal("eventHubTrigger", (string?)trigger["type"]);
            Assert.Equal($"%{kind.HubSetting}%", (string?)trigger["eventHubName"]);
            Assert.Equal($"%{kind.ConsumerGroupSetting}%", (string?)trigger["consumerGroup"]);
            Assert.Equal("EventHubConnection", (string?)trigger["connection"]);
            Assert.Equal("events", (string?)trigger["name"]);
            Assert.Equal("binary", (string?)trigger["dataType"]);
        }
    }

    [Fact]
    public void FunctionFolders_EveryFolder_IsTheSplitterOrAKindsProcessor()
    {
        var folders = Directory.GetDirectories(Path.Combine(Root, "functions"))
            .Where(d => File.Exists(Path.Combine(d, "function.json")))
            .Select(Path.GetFileName)
            .Order(StringComparer.Ordinal);

        Assert.Equal(Kinds.Select(k => k.Processor).Append("Splitter").Order(StringComparer.Ordinal), folders);
    }

    [Fact]
    public void LocalNamespace_EveryKind_HasItsHubAndConsumerGroup()
    {
        var config = JsonNode.Parse(File.ReadAllText(Path.Combine(Root, "eventhubs.emulator.json")))!;
        var hubs = config["UserConfig"]!["NamespaceConfig"]![0]!["Entities"]!.AsArray()
            .ToDictionary(e => (string)e!["Name"]!, e => e!["ConsumerGroups"]!.AsArray().Select(g => (string)g!["Name"]!).ToArray());

        Assert.Equal(Kinds.Select(k => k.Hub).Append("ingestion").Order(StringComparer.Ordinal), hubs.Keys.Order(StringComparer.Ordinal));
        foreach (var kind in Kinds)
        {
            Assert.Contains(kind.ConsumerGroup, hubs[kind.Hub]);
        }
    }

    [Fact]
    public void LocalSettings_EveryKind_NamesItsHubAndConsumerGroup()
    {
        var values = JsonNode.Parse(File.ReadAllText(Path.Combine(Root, "local.settings.json")))!["Values"]!;
        foreach (var kind in Kinds)
        {
            Assert.Equal(kind.Hub, (string?)values[kind.HubSetting]);
            Assert.Equal(kind.ConsumerGroup, (string?)values[kind.ConsumerGroupSetting]);
        }
    }

    [Fact]
    public void FunctionFolders_EveryTrigger_NamesItsConsumerGroupByItsFunctionsSetting()
    {
        // The splitter too: a run against a deployed namespace replaces every group by setting (./pipeline up --eventhubs).
        foreach (var path in Directory.GetDirectories(Path.Combine(Root, "functions")).Select(d => Path.Combine(d, "function.json")).Where(File.Exists))
        {
            var function = Path.GetFileName(Path.GetDirectoryName(path))!;
            var trigger = JsonNode.Parse(File.ReadAllText(path))!["bindings"]!.AsArray().Single(b => (string?)b!["type"] == "eventHubTrigger")!;
            Assert.Equal($"%{SensorKindDefinition.ConsumerGroupSettingOf(function)}%", (string?)trigger["consumerGroup"]);
        }
    }
}
