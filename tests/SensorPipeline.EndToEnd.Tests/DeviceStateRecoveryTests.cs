namespace SensorPipeline.EndToEnd.Tests;

/// <summary>
/// Device states are written within W after their readings, so an invocation's checkpoint moves while its states are
/// still in the handler's memory. kill -9 of the handler then: its pending-states mark expires, the handler devhost
/// starts again rebuilds the states from <c>readings</c>, and every device ends at its newest reading.
/// </summary>
[Collection(StackCollections.Readings)]
public sealed class DeviceStateRecoveryTests : IDisposable
{
    private readonly TempDirectory _data = new("sensorpipeline-states-");

    [Fact]
    public async Task Handler_KilledAfterTheCheckpointMovedWithStatesPending_EveryDeviceStateRestored()
    {
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(5));
        var options = new StackOptions
        {
            DataDirectory = _data.Path,
            DatabaseName = "states",
            MaxAge = TimeSpan.FromHours(1),
            // W at its longest, so the states are surely pending when the checkpoints have moved; a short mark expiry.
            Environment = new Dictionary<string, string> { ["Pipeline__DeviceStateLag"] = "00:00:10", ["Pipeline__DeviceStateMarkExpiry"] = "00:00:03" },
        };
        await using var pipeline = await LocalPipeline.StartAsync(RepoLayout.Discover(), options, timeout.Token);
        var ledger = Path.Combine(_data.Path, "ledger.json");
        await RestartTests.SendAsync(pipeline, ledger, "states", timeout.Token);
        await pipeline.WaitForDrainAsync(TimeSpan.FromMinutes(3), TimeSpan.FromMilliseconds(500), timeout.Token);
        var pending = await pipeline.GetDeviceStatesAsync(timeout.Token);
        Assert.True(pending.Pending > 0, $"no device state pending once the checkpoints moved (the drain outlasted W?): {pending}");

        var killed = await pipeline.KillHandlerAsync(timeout.Token);

        // verify waits until every pending-states mark promises the readings stored before it began: the killed
        // handler's stays behind until the new handler has recovered it.
        var (exit, verdict) = await Demo.VerifyAsync(pipeline, ledger, Path.Combine(_data.Path, "verdict.json"), timeout.Token);
        Assert.True(exit == 0, $"verify exited {exit}: {verdict}");
        Assert.Equal(1000, verdict.GetProperty("written").GetInt64());
        Assert.Equal(0, verdict.GetProperty("deviceMismatches").GetInt32());
        var restarted = await pipeline.GetFunctionsStatusAsync(timeout.Token);
        Assert.NotEqual(killed, restarted.HandlerPid);
        var recovered = await pipeline.GetDeviceStatesAsync(timeout.Token);
        Assert.True(recovered.Written > 0, $"the restarted handler wrote no state: {recovered}");
        Assert.Equal(0, recovered.UnrecoveredMarks);
    }

    public void Dispose() => _data.Dispose();
}
