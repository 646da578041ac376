namespace SensorPipeline.FunctionsHost.Tests;

/// <summary>Seeing inside: <c>GET /status</c> carries the Functions host's part (checkpoint and lag per partition of each
/// consumer group, invocations ok/failed/retried per function, the handler) beside the emulator's hubs, identical to
/// <c>GET /status/functions</c>; <c>devhost status</c> prints it as tables.</summary>
public sealed class StatusTests
{
    [Fact]
    public async Task Status_IncludesCheckpointsLagInvocationsAndHandler_AndStatusCommandPrintsThem()
    {
        await using var app = new TestApp();
        Assert.Null(await app.StartAsync());

        // Partition 0: three events processed (checkpoint 2). Partition 1: a failed batch, checkpointed past (no retry
        // policy). Then a paused function leaves two events on partition 0 as lag.
        await app.SendAsync("input", "0", "a", "b", "c");
        await app.WaitUntilAsync(async () => await app.CheckpointAsync("0") == 2, "checkpoint 2 on partition 0");
        app.SetScript("""{"Fn": {"mode": "fail", "status": 500}}""");
        await app.SendAsync("input", "1", "x");
        await app.WaitUntilAsync(async () => await app.CheckpointAsync("1") == 0, "checkpoint past the failed batch on partition 1");
        using (var paused = await app.Http.PostAsync(app.At("admin/functions/Fn/pause"), null))
        {
            Assert.True(paused.IsSuccessStatusCode);
        }

        await app.SendAsync("input", "0", "d", "e");

        var status = await app.DevHostStatusAsync();
        Assert.Equal(["input", "output"], status.GetProperty("hubs").EnumerateArray().Select(h => h.GetProperty("name").GetString()));
        var host = status.GetProperty("functionsHost");
        var functionsOnly = await app.StatusAsync();
        Assert.Equal(functionsOnly.GetProperty("handlerPid").GetInt32(), host.GetProperty("handlerPid").GetInt32());
        Assert.Equal(1, host.GetProperty("handlerStarts").GetInt32());
        Assert.True(host.GetProperty("handlerPort").GetInt32() > 0);

        var fn = Assert.Single(host.GetProperty("functions").EnumerateArray());
        Assert.Equal("Fn", fn.GetProperty("name").GetString());
        Assert.Equal("input", fn.GetProperty("eventHubName").GetString());
        Assert.Equal("fn", fn.GetProperty("consumerGroup").GetString());
        Assert.True(fn.GetProperty("paused").GetBoolean());
        Assert.True(fn.GetProperty("invocationsSucceeded").GetInt64() >= 1);
        Assert.Equal(1, fn.GetProperty("invocationsFailed").GetInt64());
        Assert.Equal(0, fn.GetProperty("invocationsRetried").GetInt64());
        JsonElement[] partitions = [.. fn.GetProperty("partitions").EnumerateArray()];
        Assert.Equal(["0", "1"], partitions.Select(p => p.GetProperty("partitionId").GetString()));
        Assert.Equal(2, partitions[0].GetProperty("checkpointSequenceNumber").GetInt64());
        Assert.Equal(4, partitions[0].GetProperty("lastEnqueuedSequenceNumber").GetInt64());
        Assert.Equal(2, partitions[0].GetProperty("lag").GetInt64());
        Assert.Equal(0, partitions[1].GetProperty("checkpointSequenceNumber").GetInt64());
        Assert.Equal(0, partitions[1].GetProperty("lag").GetInt64());
        Assert.Equal(JsonValueKind.String, partitions[1].GetProperty("checkpointTime").ValueKind);

        var (exitCode, output, errors) = await app.RunStatusCommandAsync();
        Assert.True(exitCode == 0, errors);
        var lines = output.Split('\n', StringSplitOptions.TrimEntries);
        Assert.Contains(lines, l => l.StartsWith($"handler pid {host.GetProperty("handlerPid").GetInt32()} ", StringComparison.Ordinal));
        var function = StatusTable.Row(lines, "Fn");
        Assert.Equal(["Fn", "input", "fn", "yes"], function[..4]);
        Assert.Equal(["1", "0", "2", "0", "0"], function[5..]); // failed, retried, lag, stalled, lost (ok depends on how the host batched the first three)
        Assert.Equal(["fn", "input", "0", "2", "4", "2"], StatusTable.Row(lines, "fn", "input", "0")[..6]);
        Assert.Equal(["fn", "input", "1", "0", "0", "0"], StatusTable.Row(lines, "fn", "input", "1")[..6]);
    }

    [Fact]
    public async Task Status_LargestInvocations_AreTheLargestRequestBodyAndBatchTheHandlerReceived()
    {
        await using var app = new TestApp();
        Assert.Null(await app.StartAsync());
        var before = Assert.Single((await app.StatusAsync()).GetProperty("functions").EnumerateArray()).GetProperty("largest");
        Assert.Equal(0, before.GetProperty("requestBytes").GetInt64());

        // Three batches of different sizes on two partitions: a large body alone, then four small ones sent while paused
        // (so they arrive as one batch of four), then one small.
        await app.SendAsync("input", "0", new string('x', 20_000));
        await app.WaitUntilAsync(async () => await app.CheckpointAsync("0") == 0, "the large event processed");
        using (var paused = await app.Http.PostAsync(app.At("admin/functions/Fn/pause"), null))
        {
            Assert.True(paused.IsSuccessStatusCode);
        }

        await app.SendAsync("input", "1", "a", "b", "c", "d");
        using (var resumed = await app.Http.PostAsync(app.At("admin/functions/Fn/resume"), null))
        {
            Assert.True(resumed.IsSuccessStatusCode);
        }

        await app.WaitUntilAsync(async () => await app.CheckpointAsync("1") == 3, "the four small events processed");
        await app.SendAsync("input", "0", "e");
        await app.WaitUntilAsync(async () => await app.CheckpointAsync("0") == 1, "the last event processed");

        var records = app.Records();
        var largest = Assert.Single((await app.StatusAsync()).GetProperty("functions").EnumerateArray()).GetProperty("largest");
        Assert.Equal(records.Max(r => System.Text.Encoding.UTF8.GetByteCount(r.Raw.GetProperty("body").GetString()!)), largest.GetProperty("requestBytes").GetInt64());
        Assert.True(largest.GetProperty("requestBytes").GetInt64() > 20_000);
        Assert.Equal(records.Max(r => r.SequenceNumbers.Length), largest.GetProperty("events").GetInt64());
        Assert.True(largest.GetProperty("seconds").GetDouble() > 0);
    }
}
