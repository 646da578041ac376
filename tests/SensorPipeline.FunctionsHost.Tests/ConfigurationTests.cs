using SensorPipeline.FunctionsHost.Config;
using SensorPipeline.FunctionsHost.Hubs;

namespace SensorPipeline.FunctionsHost.Tests;

/// <summary>The loader on its own: defaults, discovery, precedence, and a clear error per bad field.</summary>
[Trait("Category", "Fast")]
public sealed class ConfigurationTests : IDisposable
{
    private readonly TempDirectory _dir = new("fh-config-");

    public ConfigurationTests()
    {
        Write("local.settings.json", """{"Values": {"Conn": "Endpoint=sb://ns.example:5672;SharedAccessKeyName=k;SharedAccessKey=v", "Hub": "input", "Port": 7}}""");
    }

    public void Dispose() => _dir.Dispose();

    private void Write(string relative, string text)
    {
        var path = Path.Combine(_dir.Path, relative);
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        File.WriteAllText(path, text);
    }

    private const string Handler = """ "customHandler": {"description": {"defaultExecutablePath": "node", "arguments": ["a.js"], "workingDirectory": "sub", "defaultWorkerPath": "w.js", "workerArguments": ["--x"]}} """;

    private const string Trigger = """{"type": "eventHubTrigger", "direction": "in", "name": "events", "eventHubName": "%Hub%", "consumerGroup": "cg", "connection": "Conn", "cardinality": "many", "dataType": "binary"}""";

    private Task<FunctionApp> LoadAsync() => FunctionAppLoader.LoadAsync(_dir.Path, CancellationToken.None);

    [Fact]
    public async Task Load_Defaults_AreTheExtensions()
    {
        Write("host.json", "{" + Handler + "}");
        Write("A/function.json", """{"bindings": [""" + Trigger + "]}");
        var app = await LoadAsync();
        Assert.Equal(EventHubsHostSettings.Default, app.Host.EventHubs);
        Assert.Equal(TimeSpan.FromMinutes(30), app.Host.FunctionTimeout);
        Assert.Null(app.Host.Retry);
        var a = Assert.Single(app.Functions);
        Assert.Equal("input", a.Trigger.EventHubName);
        Assert.Equal("ns.example", a.FullyQualifiedNamespace);
        Assert.Equal("7", app.Values["Port"]);
    }

    [Fact]
    public void Default_EventHubsHostSettings_OwnershipIntervalsAndScalingTargetAreTheProcessors() =>
        Assert.Equal((TimeSpan.FromSeconds(30), TimeSpan.FromMinutes(2), null, 100),
            (EventHubsHostSettings.Default.LoadBalancingUpdateInterval, EventHubsHostSettings.Default.PartitionOwnershipExpirationInterval,
             EventHubsHostSettings.Default.TargetUnprocessedEventThreshold, EventHubsHostSettings.Default.TargetEventsPerInstance));

    [Fact]
    public async Task Load_OwnershipIntervalsAndScalingTargetInHostJson_Read()
    {
        Write("host.json", """{"extensions": {"eventHubs": {"maxEventBatchSize": 7, "loadBalancingUpdateInterval": "00:00:05", "partitionOwnershipExpirationInterval": "00:00:20", "targetUnprocessedEventThreshold": 40}}, """ + Handler + "}");
        var eventHubs = (await LoadAsync()).Host.EventHubs;
        Assert.Equal((TimeSpan.FromSeconds(5), TimeSpan.FromSeconds(20), 40, 40),
            (eventHubs.LoadBalancingUpdateInterval, eventHubs.PartitionOwnershipExpirationInterval, eventHubs.TargetUnprocessedEventThreshold, eventHubs.TargetEventsPerInstance));
    }

    [Fact]
    public async Task Load_HandlerDescription_ArgumentsThenWorkerPathThenWorkerArguments()
    {
        Write("host.json", "{" + Handler + "}");
        var handler = (await LoadAsync()).Host.Handler;
        Assert.Equal("node", handler.ExecutablePath);
        Assert.Equal(Path.Combine(_dir.Path, "sub"), handler.WorkingDirectory);
        Assert.Equal(["a.js", Path.Combine(_dir.Path, "sub", "w.js"), "--x"], handler.Arguments);
    }

    [Fact]
    public async Task Load_FunctionsAtTheRootAndInFunctionsFolder_FoundDisabledAndHttpSkipped()
    {
        var app = await LoadFourFunctionsAsync();
        Assert.Equal(["A", "B"], app.Functions.Select(f => f.Name));
    }

    [Fact]
    public async Task Load_RetryInHostJsonAndFunctionJson_TheFunctionsOverridesTheHosts()
    {
        var app = await LoadFourFunctionsAsync();
        Assert.Equal(RetryStrategy.FixedDelay, app.Functions[0].Retry!.Strategy);
        Assert.Equal(-1, app.Functions[1].Retry!.MaxRetryCount);
    }

    [Fact]
    public async Task Load_FunctionTimeoutMinusOne_NoTimeout()
    {
        var app = await LoadFourFunctionsAsync();
        Assert.Null(app.Host.FunctionTimeout);
    }

    // A at the root with the host's retry, B under functions/ with its own, C disabled, H HTTP-triggered.
    private async Task<FunctionApp> LoadFourFunctionsAsync()
    {
        Write("host.json", """{"functionTimeout": "-1", "retry": {"strategy": "fixedDelay", "maxRetryCount": 2, "delayInterval": "00:00:05"}, """ + Handler + "}");
        Write("A/function.json", """{"bindings": [""" + Trigger + "]}");
        Write("functions/B/function.json", """{"bindings": [""" + Trigger + """], "retry": {"strategy": "exponentialBackoff", "maxRetryCount": -1, "minimumInterval": "00:00:01", "maximumInterval": "00:01:00"}}""");
        Write("functions/C/function.json", """{"disabled": true, "bindings": [""" + Trigger + "]}");
        Write("functions/H/function.json", """{"bindings": [{"type": "httpTrigger", "direction": "in", "name": "req"}]}""");
        return await LoadAsync();
    }

    [Theory]
    [InlineData("""{"extensions": {"eventHubs": {"maxEventBatchSize": 0}}, HANDLER}""", "extensions.eventHubs.maxEventBatchSize")]
    [InlineData("""{"extensions": {"eventHubs": {"maxWaitTime": "00:11:00"}}, HANDLER}""", "extensions.eventHubs.maxWaitTime")]
    [InlineData("""{"extensions": {"eventHubs": {"batchCheckpointFrequency": 0}}, HANDLER}""", "extensions.eventHubs.batchCheckpointFrequency")]
    [InlineData("""{"extensions": {"eventHubs": {"prefetchCount": -1}}, HANDLER}""", "extensions.eventHubs.prefetchCount")]
    [InlineData("""{"extensions": {"eventHubs": {"initialOffsetOptions": {"type": "fromMiddle"}}}, HANDLER}""", "extensions.eventHubs.initialOffsetOptions.type")]
    [InlineData("""{"extensions": {"eventHubs": {"initialOffsetOptions": {"type": "fromEnqueuedTime"}}}, HANDLER}""", "extensions.eventHubs.initialOffsetOptions.enqueuedTimeUtc")]
    [InlineData("""{"retry": {"strategy": "sometimes", "maxRetryCount": 1}, HANDLER}""", "retry.strategy")]
    [InlineData("""{"retry": {"strategy": "fixedDelay"}, HANDLER}""", "retry.maxRetryCount")]
    [InlineData("""{"functionTimeout": "soon", HANDLER}""", "functionTimeout")]
    [InlineData("""{"extensions": {"eventHubs": {"loadBalancingUpdateInterval": "00:00:00"}}, HANDLER}""", "extensions.eventHubs.loadBalancingUpdateInterval")]
    [InlineData("""{"extensions": {"eventHubs": {"loadBalancingUpdateInterval": "00:01:00", "partitionOwnershipExpirationInterval": "00:00:30"}}, HANDLER}""", "extensions.eventHubs.partitionOwnershipExpirationInterval")]
    [InlineData("""{"extensions": {"eventHubs": {"targetUnprocessedEventThreshold": 0}}, HANDLER}""", "extensions.eventHubs.targetUnprocessedEventThreshold")]
    [InlineData("""{"version": "2.0"}""", "customHandler.description")]
    [InlineData("""[1]""", "$")]
    public async Task Load_BadHostJson_NamesFileAndField(string hostJson, string field)
    {
        Write("host.json", hostJson.Replace("HANDLER", Handler, StringComparison.Ordinal));
        var error = await Assert.ThrowsAsync<FunctionAppConfigurationException>(LoadAsync);
        Assert.Equal(Path.Combine(_dir.Path, "host.json"), error.File);
        Assert.Equal(field, error.Field);
        Assert.Contains(field, error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("""{"bindings": [{"type": "eventHubTrigger", "direction": "in", "name": "e", "eventHubName": "x", "connection": "Conn", "cardinality": "one"}]}""", "bindings[0].cardinality")]
    [InlineData("""{"bindings": [{"type": "eventHubTrigger", "direction": "in", "name": "e", "eventHubName": "%Missing%", "connection": "Conn", "cardinality": "many"}]}""", "bindings[0].eventHubName")]
    [InlineData("""{"bindings": [{"type": "eventHubTrigger", "direction": "in", "name": "e", "eventHubName": "x", "connection": "NoSuchConn", "cardinality": "many"}]}""", "connection")]
    [InlineData("""{"bindings": [{"type": "eventHubTrigger", "direction": "in", "name": "e", "eventHubName": "x", "connection": "Conn", "cardinality": "many", "dataType": "stream"}]}""", "bindings[0].dataType")]
    [InlineData("""{"bindings": [{"type": "eventHubTrigger", "direction": "in", "name": "e", "eventHubName": "x", "connection": "Conn", "cardinality": "many"}, {"type": "cosmosDB", "direction": "out", "name": "d"}]}""", "bindings[1].type")]
    [InlineData("""{"bindings": {}}""", "bindings")]
    [InlineData("""{"bindings": [{"direction": "in", "name": "e"}]}""", "bindings[0].type")]
    public async Task Load_BadFunctionJson_NamesFileAndField(string functionJson, string field)
    {
        Write("host.json", "{" + Handler + "}");
        Write("functions/F/function.json", functionJson);
        var error = await Assert.ThrowsAsync<FunctionAppConfigurationException>(LoadAsync);
        Assert.Equal(Path.Combine(_dir.Path, "functions", "F", "function.json"), error.File);
        Assert.Equal(field, error.Field);
    }

    [Fact]
    public async Task Load_DuplicateFunctionName_IsRejected()
    {
        Write("host.json", "{" + Handler + "}");
        Write("F/function.json", """{"bindings": [""" + Trigger + "]}");
        Write("functions/F/function.json", """{"bindings": [""" + Trigger + "]}");
        var error = await Assert.ThrowsAsync<FunctionAppConfigurationException>(LoadAsync);
        Assert.Contains("also defined by", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task ValidateAgainst_UnknownHubOrConsumerGroupOrOutputHub_IsNamed()
    {
        Write("host.json", "{" + Handler + "}");
        Write("functions/F/function.json", """{"bindings": [""" + Trigger + """, {"type": "eventHub", "direction": "out", "name": "o", "eventHubName": "nowhere", "connection": "Conn"}]}""");
        var app = await LoadAsync();
        Assert.Contains("'input' does not exist", Assert.Throws<FunctionAppConfigurationException>(() => FunctionAppLoader.ValidateAgainst(app, [new HubInfo("other", 1, ["cg"])])).Message, StringComparison.Ordinal);
        Assert.Contains("consumer group 'cg'", Assert.Throws<FunctionAppConfigurationException>(() => FunctionAppLoader.ValidateAgainst(app, [new HubInfo("INPUT", 1, ["$Default"])])).Message, StringComparison.Ordinal);
        Assert.Contains("'nowhere' does not exist", Assert.Throws<FunctionAppConfigurationException>(() => FunctionAppLoader.ValidateAgainst(app, [new HubInfo("input", 1, ["CG"])])).Message, StringComparison.Ordinal);
    }
}
