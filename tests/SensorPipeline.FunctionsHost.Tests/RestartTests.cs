namespace SensorPipeline.FunctionsHost.Tests;

/// <summary>At-least-once across crashes: a dying handler, a function timeout and devhost killed with -9 all lead to
/// the in-flight batch being delivered again from the checkpoint; nothing is skipped.</summary>
public sealed class RestartTests
{
    [Fact]
    public async Task HandlerKilledMidBatch_IsRestarted_AndTheBatchIsRedelivered()
    {
        await using var app = new TestApp();
        app.SetScript("""{"Fn": {"mode": "exitOnce"}}""");
        Assert.Null(await app.StartAsync());
        await app.SendAsync("input", "0", "a", "b");
        await app.WaitForRecordsAsync(r => r.Count >= 2, "the batch delivered again after the restart");
        await app.WaitUntilAsync(async () => await app.CheckpointAsync("0") == 1, "checkpoint after the redelivered batch");

        var records = app.Records();
        Assert.Equal(records[0].SequenceNumbers, records[1].SequenceNumbers);
        Assert.NotEqual(records[0].Pid, records[1].Pid);
        Assert.Contains("exited with code 3", app.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task HandlerSigkilledWhileInvoking_IsRestarted_AndTheBatchIsRedelivered()
    {
        await using var app = new TestApp();
        app.SetScript("""{"Fn": {"mode": "hang"}}""");
        Assert.Null(await app.StartAsync());
        await app.SendAsync("input", "1", "a", "b", "c");
        await app.WaitForRecordsAsync(r => r.Count == 1, "the batch in flight");
        var pid = (await app.StatusAsync()).GetProperty("handlerPid").GetInt32();
        Assert.Equal(app.Records()[0].Pid, pid);

        app.SetScript("""{"Fn": {"mode": "ok"}}""");
        using (var handler = System.Diagnostics.Process.GetProcessById(pid))
        {
            handler.Kill(); // SIGKILL
        }

        await app.WaitUntilAsync(async () => await app.CheckpointAsync("1") == 2, "checkpoint after the redelivery");
        var records = app.Records();
        Assert.Equal(2, records.Count);
        Assert.Equal([0L, 1L, 2L], records[1].SequenceNumbers);
        Assert.NotEqual(pid, records[1].Pid);
        var fn = (await app.StatusAsync()).GetProperty("functions")[0];
        Assert.Equal(0, fn.GetProperty("invocationsFailed").GetInt64());
        Assert.Equal(2, (await app.StatusAsync()).GetProperty("handlerStarts").GetInt32());
    }

    [Fact]
    public async Task Terminate_DevHost_StopsTheHandler()
    {
        await using var app = new TestApp();
        Assert.Null(await app.StartAsync());
        var pid = (await app.StatusAsync()).GetProperty("handlerPid").GetInt32();
        var exitCode = await app.TerminateAsync();
        Assert.True(exitCode == 0, $"devhost exited {exitCode} on SIGTERM:\n{app.Output}");
        Assert.Throws<ArgumentException>(() => System.Diagnostics.Process.GetProcessById(pid));
    }

    [Theory]
    [InlineData("hang")] // never answers
    [InlineData("empty")] // answers 200 with no body: the host waits for the rest until the function timeout
    public async Task FunctionTimeout_HandlerNeverAnswersWhole_RestartsTheHandlerAndRedeliversTheBatch(string mode)
    {
        await using var app = new TestApp(functionTimeout: "00:00:01");
        app.SetScript($$$"""{"Fn": {"mode": "{{{mode}}}"}}""");
        Assert.Null(await app.StartAsync());
        await app.SendThroughOutageAsync("0", attempts: 1);

        var records = app.Records();
        Assert.Equal(2, records.Count);
        Assert.Equal([0L], records[1].SequenceNumbers);
        Assert.NotEqual(records[0].Pid, records[1].Pid);
        Assert.Contains("Timeout value of 00:00:01 exceeded", app.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task DevHostKilledWithSigkill_RestartResumesFromCheckpoint_NothingSkipped()
    {
        await using var app = new TestApp("""{"maxEventBatchSize": 4}""");
        // 250 ms per batch: ten batches take 2.5 s, so the kill after the second checkpoint lands mid-stream even on a
        // loaded two-core machine (at 40 ms a slow poll could see every batch done before the kill).
        app.SetScript("""{"Fn": {"mode": "ok", "delayMs": 250}}""");
        Assert.Null(await app.StartAsync());
        await app.SendAsync("input", "0", Enumerable.Range(0, 40).Select(i => $"e{i}").ToArray());
        await app.WaitUntilAsync(async () => await app.CheckpointAsync("0") >= 7, "some batches checkpointed");
        var orphanPid = (await app.StatusAsync()).GetProperty("handlerPid").GetInt32();
        await app.KillAsync();
        var before = app.Records().Count;
        using (var orphan = System.Diagnostics.Process.GetProcessById(orphanPid))
        {
            Assert.False(orphan.HasExited, "kill -9 of devhost leaves its handler running");
        }

        Assert.Null(await app.StartAsync());
        Assert.Contains($"Stopped handler pid {orphanPid} left running by a previous devhost", app.Output, StringComparison.Ordinal);
        await app.WaitUntilAsync(async () => await app.CheckpointAsync("0") == 39, "every event checkpointed after the restart");

        var records = app.Records();
        var seen = records.SelectMany(r => r.SequenceNumbers).ToHashSet();
        Assert.Equal(Enumerable.Range(0, 40).Select(i => (long)i), seen.Order());

        // After the restart, delivery resumes at or before the first event not yet checkpointed, in order, without gaps.
        var after = records.Skip(before).SelectMany(r => r.SequenceNumbers).ToList();
        Assert.True(after.Count > 0, "nothing was delivered after the restart: the kill came after the last batch, so the resume was not exercised");
        Assert.Equal(Enumerable.Range((int)after[0], after.Count).Select(i => (long)i), after);
        Assert.True(after[0] <= records.Take(before).SelectMany(r => r.SequenceNumbers).Max() + 1);
    }
}
