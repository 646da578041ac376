namespace SensorPipeline.FunctionsHost.Tests;

/// <summary>Bad configuration stops devhost at start-up with a message naming the file and the field.</summary>
public sealed class BadConfigurationTests
{
    private static async Task AssertStartFailsAsync(TestApp app, params string[] expected)
    {
        var exitCode = await app.StartAsync();
        Assert.True(exitCode is not null and not 0, "devhost should have stopped:\n" + app.Output);
        foreach (var text in expected)
        {
            Assert.Contains(text, app.Output, StringComparison.Ordinal);
        }
    }

    [Fact]
    public async Task Start_MalformedHostJson_FailsNamingFileAndPosition()
    {
        await using var app = new TestApp();
        File.WriteAllText(Path.Combine(app.Root, "host.json"), "{ \"version\": \"2.0\", ");
        await AssertStartFailsAsync(app, "host.json", "malformed JSON");
    }

    [Fact]
    public async Task Start_SettingOfTheWrongType_FailsNamingTheField()
    {
        await using var app = new TestApp("""{"maxEventBatchSize": "lots"}""");
        await AssertStartFailsAsync(app, "host.json", "extensions.eventHubs.maxEventBatchSize", "expected an integer");
    }

    [Fact]
    public async Task Start_MinBatchAboveMax_FailsNamingTheField()
    {
        await using var app = new TestApp("""{"maxEventBatchSize": 5, "minEventBatchSize": 6}""");
        await AssertStartFailsAsync(app, "extensions.eventHubs.minEventBatchSize");
    }

    [Fact]
    public async Task Start_UnknownHub_FailsNamingFunctionJsonAndHub()
    {
        await using var app = new TestApp();
        app.WriteLocalSettings(new Dictionary<string, string> { ["InputHub"] = "nosuchhub" });
        await AssertStartFailsAsync(app, Path.Combine("functions", "Fn", "function.json"), "eventHubName", "'nosuchhub' does not exist");
    }

    [Fact]
    public async Task Start_UnknownConsumerGroup_FailsNamingIt()
    {
        await using var app = new TestApp();
        app.AddFunction("Fn", """
            {"bindings": [{"type": "eventHubTrigger", "direction": "in", "name": "events", "eventHubName": "input", "consumerGroup": "ghost",
               "connection": "EventHubConnection", "cardinality": "many", "dataType": "binary"}]}
            """);
        await AssertStartFailsAsync(app, "function.json", "consumerGroup", "'ghost' does not exist");
    }

    [Fact]
    public async Task Start_UnsetSetting_FailsNamingSettingAndField()
    {
        await using var app = new TestApp();
        app.AddFunction("Fn", """
            {"bindings": [{"type": "eventHubTrigger", "direction": "in", "name": "events", "eventHubName": "%NotSetAnywhere%", "consumerGroup": "fn",
               "connection": "EventHubConnection", "cardinality": "many", "dataType": "binary"}]}
            """);
        await AssertStartFailsAsync(app, "function.json", "bindings[0].eventHubName", "'NotSetAnywhere'");
    }

    [Fact]
    public async Task Start_MalformedLocalSettings_FailsNamingTheFile()
    {
        await using var app = new TestApp();
        File.WriteAllText(Path.Combine(app.Root, "local.settings.json"), "{\"Values\": {\"A\": {\"nested\": 1}}}");
        await AssertStartFailsAsync(app, "local.settings.json", "Values.A");
    }

    [Fact]
    public async Task Start_HandlerThatNeverStarts_FailsNamingCustomHandler()
    {
        await using var app = new TestApp();
        var host = File.ReadAllText(Path.Combine(app.Root, "host.json"));
        File.WriteAllText(Path.Combine(app.Root, "host.json"), host.Replace("\"defaultExecutablePath\":\"node\"", "\"defaultExecutablePath\":\"./no-such-handler\"", StringComparison.Ordinal));
        await AssertStartFailsAsync(app, "customHandler.description.defaultExecutablePath");
    }
}
