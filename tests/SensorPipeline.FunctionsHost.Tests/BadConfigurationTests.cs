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

    [Theory]
    [InlineData("host.json", "{ \"version\": \"2.0\", ", "malformed JSON")]
    [InlineData("local.settings.json", "{\"Values\": {\"A\": {\"nested\": 1}}}", "Values.A")]
    public async Task Start_MalformedFile_FailsNamingTheFileAndWhereItIsWrong(string file, string content, string where)
    {
        await using var app = new TestApp();
        File.WriteAllText(Path.Combine(app.Root, file), content);
        await AssertStartFailsAsync(app, file, where);
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

    [Theory]
    [InlineData("input", "ghost", "consumerGroup", "'ghost' does not exist")]
    [InlineData("%NotSetAnywhere%", "fn", "bindings[0].eventHubName", "'NotSetAnywhere'")]
    [InlineData("input", "%FnConsumerGroup%", "bindings[0].consumerGroup", "setting 'FnConsumerGroup' (from \"%FnConsumerGroup%\") is not set in local.settings.json Values or the environment")]
    public async Task Start_TriggerNamingWhatIsNotThere_FailsNamingTheField(string eventHubName, string consumerGroup, string field, string problem)
    {
        // An unknown consumer group; a %setting% no app setting defines, for the hub and for the consumer group.
        await using var app = new TestApp();
        app.AddTriggeredFunction("Fn", eventHubName, consumerGroup);
        await AssertStartFailsAsync(app, "function.json", field, problem);
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
