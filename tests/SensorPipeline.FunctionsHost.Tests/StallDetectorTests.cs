namespace SensorPipeline.FunctionsHost.Tests;

/// <summary>The local stall detector: a partition with lag whose checkpoint does not move for longer than
/// <c>FunctionsHost:StallThreshold</c>, or whose oldest unprocessed event is older than
/// <c>FunctionsHost:StallRetentionFraction</c> of retention, is reported stalled in <c>/status/functions</c>, logged once
/// when the stall starts and once when it ends, and counted in <c>devhost status</c>.</summary>
public sealed class StallDetectorTests
{
    private const string RetryForever = """{"strategy": "fixedDelay", "maxRetryCount": -1, "delayInterval": "00:00:00.200"}""";

    [Fact]
    public async Task HandlerFailingOnOnePartition_IsStalled_AndClearsWhenFixed()
    {
        await using var app = new TestApp(retry: RetryForever);
        app.ExtraSettings.AddRange(["FunctionsHost:StallThreshold=00:00:03", "FunctionsHost:StallCheckInterval=00:00:00.200"]);
        Assert.Null(await app.StartAsync());
        // The SDK's processor claims partitions after start: an event sent before the claim waits for it, which on a
        // loaded machine outlasts a short stall threshold. Partition 0 must never count as stalled, so the claim comes first.
        await app.WaitUntilAsync(async () => (await app.StatusAsync()).GetProperty("functions")[0].GetProperty("partitions").EnumerateArray()
            .All(p => p.TryGetProperty("owner", out var owner) && owner.ValueKind == JsonValueKind.String), "both partitions owned");
        await app.SendAsync("input", "0", "a");
        await app.WaitUntilAsync(async () => await app.CheckpointAsync("0") == 0, "checkpoint 0 on partition 0");

        // Every attempt on partition 1 now fails, and the retry policy holds its checkpoint.
        app.SetScript("""{"Fn": {"mode": "fail", "status": 500}}""");
        await app.SendAsync("input", "1", "x", "y");
        await app.WaitUntilAsync(async () => Partition(await app.StatusAsync(), "1").GetProperty("stalled").GetBoolean(), "partition 1 reported stalled");
        var status = await app.StatusAsync();
        var stalled = Partition(status, "1");
        Assert.Equal(2, stalled.GetProperty("lag").GetInt64());
        Assert.True(stalled.GetProperty("stalledForSeconds").GetDouble() >= 3, stalled.ToString());
        Assert.True(stalled.GetProperty("oldestUnprocessedAgeSeconds").GetDouble() >= 0, stalled.ToString());
        Assert.Equal(1, stalled.GetProperty("stalls").GetInt64());
        var healthy = Partition(status, "0");
        Assert.False(healthy.GetProperty("stalled").GetBoolean());
        Assert.Equal(JsonValueKind.Null, healthy.GetProperty("stalledForSeconds").ValueKind);
        Assert.Equal(JsonValueKind.Null, healthy.GetProperty("oldestUnprocessedAgeSeconds").ValueKind);

        var (exitCode, output, errors) = await app.RunStatusCommandAsync();
        Assert.True(exitCode == 0, errors);
        var lines = output.Split('\n', StringSplitOptions.TrimEntries);
        Assert.Equal("1", StatusTable.Row(lines, "Fn")[^2]); // partitions stalled now
        Assert.EndsWith("s", StatusTable.Row(lines, "fn", "input", "1")[6], StringComparison.Ordinal); // stalled for
        Assert.Equal("-", StatusTable.Row(lines, "fn", "input", "0")[6]);

        // Fixed: the retried batch succeeds, the checkpoint moves, the stall ends.
        app.SetScript("""{"Fn": {"mode": "ok"}}""");
        await app.WaitUntilAsync(async () => Partition(await app.StatusAsync(), "1") is var p && !p.GetProperty("stalled").GetBoolean() && p.GetProperty("lag").GetInt64() == 0, "the stall on partition 1 to clear");
        var cleared = Partition(await app.StatusAsync(), "1");
        Assert.Equal(1, cleared.GetProperty("stalls").GetInt64());
        Assert.Equal(JsonValueKind.Null, cleared.GetProperty("stalledForSeconds").ValueKind);
        await WaitForLogAsync(app, "'Functions.Fn' partition 1 (consumer group fn) is moving again");
        Assert.Equal(1, Occurrences(app.Output, "'Functions.Fn' partition 1 (consumer group fn) is stalled: lag 2"));
        Assert.Equal(1, Occurrences(app.Output, "'Functions.Fn' partition 1 (consumer group fn) is moving again"));
        Assert.Equal(0, Occurrences(app.Output, "'Functions.Fn' partition 0 (consumer group fn) is stalled"));
    }

    [Fact]
    public async Task OldestUnprocessedEventNearingRetention_IsStalled_BeforeTheThreshold()
    {
        await using var app = new TestApp();

        // Retention 4 s (the log deletes only sealed segments, so the one event stays); the threshold is an hour, so
        // only the age of the backlog can call the stall: half of retention, the default fraction.
        app.ExtraSettings.AddRange(["EventHubs:RetentionPeriod=00:00:04", "FunctionsHost:StallThreshold=01:00:00", "FunctionsHost:StallCheckInterval=00:00:00.200"]);
        Assert.Null(await app.StartAsync());
        using (var paused = await app.Http.PostAsync(app.At("admin/functions/Fn/pause"), null))
        {
            Assert.True(paused.IsSuccessStatusCode);
        }

        await app.SendAsync("input", "0", "waiting");
        await app.WaitUntilAsync(async () => Partition(await app.StatusAsync(), "0").GetProperty("stalled").GetBoolean(), "partition 0 reported stalled");
        var stalled = Partition(await app.StatusAsync(), "0");
        Assert.True(stalled.GetProperty("oldestUnprocessedAgeSeconds").GetDouble() >= 2, stalled.ToString());
        Assert.True(stalled.GetProperty("stalledForSeconds").GetDouble() < 3600, stalled.ToString());

        using (var resumed = await app.Http.PostAsync(app.At("admin/functions/Fn/resume"), null))
        {
            Assert.True(resumed.IsSuccessStatusCode);
        }

        await app.WaitUntilAsync(async () => !Partition(await app.StatusAsync(), "0").GetProperty("stalled").GetBoolean(), "the stall on partition 0 to clear");
        await WaitForLogAsync(app, "'Functions.Fn' partition 0 (consumer group fn) is moving again");
        Assert.Equal(1, Occurrences(app.Output, "'Functions.Fn' partition 0 (consumer group fn) is stalled"));
        Assert.Equal(1, Occurrences(app.Output, "'Functions.Fn' partition 0 (consumer group fn) is moving again"));
    }

    [Fact]
    public async Task StallRetentionFractionOutOfRange_StopsStartUp_NamingTheSetting()
    {
        await using var app = new TestApp();
        app.ExtraSettings.Add("FunctionsHost:StallRetentionFraction=0");
        Assert.Equal(1, await app.StartAsync());
        Assert.Contains("FunctionsHost:StallRetentionFraction must be greater than 0 and at most 1, found 0", app.Output, StringComparison.Ordinal);
    }

    private static JsonElement Partition(JsonElement status, string id) => RetentionGapTests.PartitionOfFn(status, id);

    // The verdict is published before its log line is written: wait for the line, then count.
    private static Task WaitForLogAsync(TestApp app, string line) =>
        app.WaitUntilAsync(() => Task.FromResult(app.Output.Contains(line, StringComparison.Ordinal)), $"the log line \"{line}\"");

    private static int Occurrences(string text, string value)
    {
        var count = 0;
        for (var at = text.IndexOf(value, StringComparison.Ordinal); at >= 0; at = text.IndexOf(value, at + value.Length, StringComparison.Ordinal))
        {
            count++;
        }

        return count;
    }
}
