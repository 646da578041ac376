namespace SensorPipeline.FunctionsHost.Tests;

/// <summary>Failure semantics: without a retry policy a failed batch is checkpointed past (as the extension does);
/// with one, the checkpoint holds until the retries end.</summary>
public sealed class CheckpointAndRetryTests
{
    [Fact]
    public async Task FailingHandler_NoRetryPolicy_CheckpointMovesPastTheBatch()
    {
        await using var app = new TestApp();
        app.SetScript("""{"Fn": {"mode": "fail", "status": 503}}""");
        Assert.Null(await app.StartAsync());
        await app.SendAsync("input", "0", "a", "b", "c");
        await app.WaitUntilAsync(async () => await app.CheckpointAsync("0") == 2, "checkpoint at sequence 2");
        Assert.Single(app.Records());
        Assert.False(app.Records()[0].Metadata.TryGetProperty("RetryContext", out _));
    }

    [Fact]
    public async Task FailingHandler_FixedDelayRetries_CheckpointHoldsUntilRetriesEnd()
    {
        await using var app = new TestApp(retry: """{"strategy": "fixedDelay", "maxRetryCount": 3, "delayInterval": "00:00:00.300"}""");
        app.SetScript("""{"Fn": {"mode": "fail"}}""");
        Assert.Null(await app.StartAsync());
        await app.SendAsync("input", "0", "a", "b");
        await app.WaitForRecordsAsync(r => r.Count >= 2, "a retry");
        Assert.Null(await app.CheckpointAsync("0"));
        await app.WaitUntilAsync(async () => await app.CheckpointAsync("0") == 1, "checkpoint after the last retry");

        var records = app.Records();
        Assert.Equal(4, records.Count);
        Assert.Equal([0, 1, 2, 3], records.Select(r => r.Metadata.GetProperty("RetryContext").GetProperty("RetryCount").GetInt32()));
        Assert.All(records, r => Assert.Equal([0L, 1L], r.SequenceNumbers));
        Assert.Equal(JsonValueKind.Null, records[0].Metadata.GetProperty("RetryContext").GetProperty("Exception").ValueKind);
        Assert.Contains("500", records[1].Metadata.GetProperty("RetryContext").GetProperty("Exception").GetProperty("InnerException").GetProperty("Message").GetString(), StringComparison.Ordinal);
        Assert.Equal(4, records.Select(r => r.Header("X-Azure-Functions-InvocationId")).Distinct().Count());

        var fn = (await app.StatusAsync()).GetProperty("functions")[0];
        Assert.Equal(4, fn.GetProperty("invocationsFailed").GetInt64());
        Assert.Equal(3, fn.GetProperty("invocationsRetried").GetInt64());
    }

    [Fact]
    public async Task FunctionJsonRetryForever_HoldsCheckpointThroughOutage_ThenMovesWhenHandlerRecovers()
    {
        await using var app = new TestApp();
        app.AddTriggeredFunction("Fn", retryJson: """{"strategy": "exponentialBackoff", "maxRetryCount": -1, "minimumInterval": "00:00:00.050", "maximumInterval": "00:00:00.200"}""");
        app.SetScript("""{"Fn": {"mode": "fail"}}""");
        Assert.Null(await app.StartAsync());
        await app.SendThroughOutageAsync("1", attempts: 5);
        Assert.Equal(-1, app.Records()[^1].Metadata.GetProperty("RetryContext").GetProperty("MaxRetryCount").GetInt32());
    }

    [Fact]
    public async Task Checkpoint_BatchCheckpointFrequency_EveryNthBatch()
    {
        await using var app = new TestApp("""{"maxEventBatchSize": 2, "batchCheckpointFrequency": 2}""");
        Assert.Null(await app.StartAsync());
        await app.SendAsync("input", "0", "a", "b", "c", "d", "e", "f");
        await app.WaitForRecordsAsync(r => r.Count == 3, "three batches of two");
        await app.WaitUntilAsync(async () => await app.CheckpointAsync("0") == 3, "checkpoint after the second batch");
        var records = app.Records();
        Assert.Equal([false, true, false], records.Select(r => r.Metadata.GetProperty("PartitionContext").GetProperty("IsCheckpointingAfterInvocation").GetBoolean()));
        Assert.Equal(3, await app.CheckpointAsync("0"));
    }
}
