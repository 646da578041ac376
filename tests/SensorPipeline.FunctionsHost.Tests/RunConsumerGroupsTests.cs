using SensorPipeline.FunctionsHost.Config;

namespace SensorPipeline.FunctionsHost.Tests;

/// <summary>The consumer groups of a run's own (<c>./pipeline up --eventhubs</c>), from the app's files (no process started).</summary>
public sealed class RunConsumerGroupsTests
{
    [Fact]
    public async Task Settings_TriggersNamingTheirGroupBySetting_EachSettingGetsItsGroupWithTheSuffix()
    {
        await using var app = new TestApp();
        app.RemoveFunction("Fn");
        app.AddTriggeredFunction("Fn", consumerGroup: "%FnConsumerGroup%");
        app.AddTriggeredFunction("Other", consumerGroup: "%OtherConsumerGroup%");
        app.WriteLocalSettings(new Dictionary<string, string> { ["FnConsumerGroup"] = "fn", ["OtherConsumerGroup"] = "marker" });

        var settings = RunConsumerGroups.Settings(await FunctionAppLoader.LoadAsync(app.Root, CancellationToken.None), "local");

        Assert.Equal(new Dictionary<string, string> { ["FnConsumerGroup"] = "fn-local", ["OtherConsumerGroup"] = "marker-local" }, settings);
    }

    [Fact]
    public async Task Settings_TriggerNamingItsGroupLiterally_RefusedNamingTheFileAndTheSettingToUse()
    {
        await using var app = new TestApp(); // Fn reads with the literal group fn

        var loaded = await FunctionAppLoader.LoadAsync(app.Root, CancellationToken.None);
        var error = Assert.Throws<FunctionAppConfigurationException>(() => RunConsumerGroups.Settings(loaded, "local"));

        Assert.Contains(Path.Combine("Fn", "function.json"), error.Message, StringComparison.Ordinal);
        Assert.Contains("bindings[events].consumerGroup", error.Message, StringComparison.Ordinal);
        Assert.Contains("%FnConsumerGroup%", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Settings_GroupWithTheSuffixPastFiftyCharacters_RefusedNamingTheLimit()
    {
        await using var app = new TestApp();
        app.RemoveFunction("Fn");
        app.AddTriggeredFunction("Fn", consumerGroup: "%FnConsumerGroup%");
        app.WriteLocalSettings(new Dictionary<string, string> { ["FnConsumerGroup"] = new string('g', 40) });

        var loaded = await FunctionAppLoader.LoadAsync(app.Root, CancellationToken.None);
        var error = Assert.Throws<FunctionAppConfigurationException>(() => RunConsumerGroups.Settings(loaded, "a-long-suffix"));

        Assert.Contains("50 characters", error.Message, StringComparison.Ordinal);
    }
}
