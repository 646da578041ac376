namespace SensorPipeline.EventHubs.Tests;

[Trait("Category", "Fast")]
public sealed class NamespaceConfigLoaderTests
{
    private const string File = "test.json";

    private static string Config(string entities) =>
        "{\"UserConfig\":{\"NamespaceConfig\":[{\"Type\":\"EventHub\",\"Name\":\"emulatorNs1\",\"Entities\":[" + entities + "]}],\"LoggingConfig\":{\"Type\":\"File\"}}}";

    [Fact]
    public void Load_RepositoryConfig_HasThePipelinesThreeHubs()
    {
        var config = NamespaceConfigLoader.Load(RepoLayout.Current.EventHubsConfig);

        Assert.Equal("emulatorNs1", config.Name);
        Assert.Equal(["ingestion", "weather", "seismic"], config.Hubs.Select(h => h.Name));
        Assert.All(config.Hubs, h => Assert.Equal(4, h.PartitionCount));
        Assert.Equal(["$Default", "splitter"], config.Hubs[0].ConsumerGroups);
        Assert.Equal(["$Default", "weather-processor"], config.Hubs[1].ConsumerGroups);
        Assert.Equal(["$Default", "seismic-processor"], config.Hubs[2].ConsumerGroups);
    }

    [Theory]
    [InlineData("\"4\"", 4)]
    [InlineData("4", 4)]
    [InlineData("\"32\"", 32)]
    public void Parse_PartitionCountStringOrNumber_Accepted(string value, int expected)
    {
        var config = NamespaceConfigLoader.Parse(Config($$"""{"Name":"h","PartitionCount":{{value}},"ConsumerGroups":[{"Name":"cg"}]}"""), File);
        Assert.Equal(expected, config.Hubs[0].PartitionCount);
    }

    [Theory]
    [InlineData("{\"Name\":\"h\",\"PartitionCount\":\"four\"}", "UserConfig.NamespaceConfig[0].Entities[0].PartitionCount")]
    [InlineData("{\"Name\":\"h\",\"PartitionCount\":0}", "UserConfig.NamespaceConfig[0].Entities[0].PartitionCount")]
    [InlineData("{\"Name\":\"h\",\"PartitionCount\":33}", "UserConfig.NamespaceConfig[0].Entities[0].PartitionCount")]
    [InlineData("{\"Name\":\"h\"}", "UserConfig.NamespaceConfig[0].Entities[0].PartitionCount")]
    [InlineData("{\"PartitionCount\":2}", "UserConfig.NamespaceConfig[0].Entities[0].Name")]
    [InlineData("{\"Name\":\"bad name!\",\"PartitionCount\":2}", "UserConfig.NamespaceConfig[0].Entities[0].Name")]
    [InlineData("{\"Name\":\"h\",\"PartitionCount\":2},{\"Name\":\"H\",\"PartitionCount\":2}", "UserConfig.NamespaceConfig[0].Entities[1].Name")]
    [InlineData("{\"Name\":\"h\",\"PartitionCount\":2,\"ConsumerGroups\":[{}]}", "UserConfig.NamespaceConfig[0].Entities[0].ConsumerGroups[0].Name")]
    [InlineData("{\"Name\":\"h\",\"PartitionCount\":2,\"ConsumerGroups\":{}}", "UserConfig.NamespaceConfig[0].Entities[0].ConsumerGroups")]
    [InlineData("", "UserConfig.NamespaceConfig[0].Entities")]
    public void Parse_BadEntity_ErrorNamesFileAndField(string entities, string field)
    {
        var e = Assert.Throws<NamespaceConfigException>(() => NamespaceConfigLoader.Parse(Config(entities), File));
        Assert.Equal(File, e.File);
        Assert.Equal(field, e.Field);
        Assert.StartsWith($"{File}: {field}: ", e.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("{}", "UserConfig")]
    [InlineData("{\"UserConfig\":{}}", "UserConfig.NamespaceConfig")]
    [InlineData("{\"UserConfig\":{\"NamespaceConfig\":{}}}", "UserConfig.NamespaceConfig")]
    [InlineData("{\"UserConfig\":{\"NamespaceConfig\":[]}}", "UserConfig.NamespaceConfig")]
    [InlineData("{\"UserConfig\":{\"NamespaceConfig\":[{\"Type\":\"EventHub\",\"Entities\":[]}]}}", "UserConfig.NamespaceConfig[0].Name")]
    public void Parse_BadStructure_ErrorNamesField(string json, string field)
    {
        var e = Assert.Throws<NamespaceConfigException>(() => NamespaceConfigLoader.Parse(json, File));
        Assert.Equal(field, e.Field);
    }

    [Fact]
    public void Parse_NotJson_ErrorNamesFileAndPosition()
    {
        var e = Assert.Throws<NamespaceConfigException>(() => NamespaceConfigLoader.Parse("{\"UserConfig\": [", File));
        Assert.Contains(File, e.Message, StringComparison.Ordinal);
        Assert.Contains("line 1", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Load_MissingFile_ErrorNamesFile()
    {
        var path = Path.Combine(Path.GetTempPath(), "no-such-" + Guid.NewGuid().ToString("N") + ".json");
        var e = Assert.Throws<NamespaceConfigException>(() => NamespaceConfigLoader.Load(path));
        Assert.Equal(path, e.File);
    }
}
