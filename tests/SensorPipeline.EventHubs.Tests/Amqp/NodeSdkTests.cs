namespace SensorPipeline.EventHubs.Tests.Amqp;

/// <summary>The Node Event Hubs SDK (@azure/event-hubs 6.0.4 from npm, root package.json) against devhost's AMQP
/// endpoint: the node test script tests/eventhubs-js/amqp.test.mjs, run with the devhost connection string. Its own
/// devhost, so the script may count sequence numbers from 0.</summary>
public sealed class NodeSdkTests(DevHostFixture fixture) : IClassFixture<DevHostFixture>
{
    [Fact]
    public async Task NodeSdk_PropertiesSendBatchAndSubscribe_RoundTrip()
    {
        Assert.True(Directory.Exists(RepoLayout.Current.File("node_modules", "@azure", "event-hubs")),
            "node_modules/@azure/event-hubs is missing: run `npm ci` in the repository root (./pipeline does)");
        var script = Path.Combine("tests", "eventhubs-js", "amqp.test.mjs");
        await using var node = await NodeTestRun.RunAsync(script,
            new Dictionary<string, string?> { ["EVENTHUBS_CONNECTION_STRING"] = AmqpPeer.ConnectionString(fixture.DevHost.BaseAddress) }, TimeSpan.FromMinutes(2));
        Assert.True(node.ExitCode == 0, $"node --test {script} exited {node.ExitCode}:\n{node.Output}");
        Assert.Contains("# pass 1", node.StandardOutput, StringComparison.Ordinal);
    }
}
