using SensorPipeline.Testing;

namespace SensorPipeline.EventHubs.Tests.Amqp;

/// <summary>The Node Event Hubs SDK (@azure/event-hubs 6.0.4 and @azure/eventhubs-checkpointstore-blob 2.0.0 from npm,
/// root package.json) against devhost's AMQP endpoint: the node test scripts in tests/eventhubs-js, run with the devhost
/// connection string (and azurite's). Its own devhost, so the scripts may count sequence numbers from 0.</summary>
public sealed class NodeSdkTests(DevHostFixture fixture, AzuriteFixture azurite) : IClassFixture<DevHostFixture>, IClassFixture<AzuriteFixture>
{
    [Fact]
    public Task NodeSdk_PropertiesSendBatchAndSubscribe_RoundTrip() => RunNodeTestAsync("amqp.test.mjs");

    [Fact]
    public Task NodeSdk_BlobCheckpointStoreOnAzurite_SecondSubscribeResumesAfterTheCheckpoints() => RunNodeTestAsync("checkpoint.test.mjs");

    [Fact]
    public Task NodeSdk_IdempotentRetries_RefusedClearlyAndNothingStored() =>
        // After close() the buffered producer's publish loop keeps a connection open for ~10 s: exit when the test ends.
        RunNodeTestAsync("idempotent.test.mjs", "--test-force-exit");

    [Fact]
    public Task NodeSdk_SixteenParallelManagementRequests_AllSucceed() => RunNodeTestAsync("concurrent-requests.test.mjs");

    [Fact]
    public Task NodeSdk_UnknownPartition_ArgumentOutOfRangeOnManagementSenderAndReceiver() => RunNodeTestAsync("unknown-partition.test.mjs");

    [Fact]
    public Task NodeSdk_EventOverTheLimit_MessageTooLargeAndTheLinkKeepsSending() => RunNodeTestAsync("message-too-large.test.mjs");

    [Fact]
    public Task NodeSdk_StartAtAnEventsEnqueuedTime_BeginsWithTheNextEvent() => RunNodeTestAsync("enqueued-time.test.mjs");

    [Fact]
    public Task NodeSdk_NullBody_ReadsBackNull() => RunNodeTestAsync("null-body.test.mjs");

    [Fact]
    public Task NodeSdk_BatchesFilledToTheLimit_AcceptedForEveryBodySize() => RunNodeTestAsync("full-batches.test.mjs");

    private async Task RunNodeTestAsync(string script, params string[] nodeOptions)
    {
        Assert.True(Directory.Exists(RepoLayout.Current.File("node_modules", "@azure", "event-hubs")),
            "node_modules/@azure/event-hubs is missing: run `npm ci` in the repository root (./pipeline does)");
        await using var node = await NodeTestRun.RunAsync(Path.Combine("tests", "eventhubs-js", script), new Dictionary<string, string?>
        {
            ["EVENTHUBS_CONNECTION_STRING"] = AmqpPeer.ConnectionString(fixture.DevHost.BaseAddress),
            ["STORAGE_CONNECTION_STRING"] = azurite.ConnectionString,
        }, TimeSpan.FromMinutes(2), nodeOptions);
        Assert.True(node.ExitCode == 0, $"node --test {script} exited {node.ExitCode}:\n{node.Output}");
        Assert.Contains("# pass 1", node.StandardOutput, StringComparison.Ordinal);
    }
}
