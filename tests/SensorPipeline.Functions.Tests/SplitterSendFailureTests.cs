namespace SensorPipeline.Functions.Tests;

/// <summary>
/// The splitter's sends against an Event Hubs emulator of the test's own, stopped and started again: an invocation
/// whose envelopes the hub did not acknowledge fails (so the host keeps its checkpoint and retries), and the retry
/// forwards every reading.
/// </summary>
[Collection(PipelineGroup.Name)]
public sealed class SplitterSendFailureTests(PipelineFixture fixture) : IAsyncLifetime
{
    private HubsEmulator? _hubs;
    private InProcessHandler? _handler;

    public async Task InitializeAsync()
    {
        _hubs = await HubsEmulator.StartAsync();
        var settings = CustomHandlerProcess.Settings(fixture.StandIn, "send-failure-" + Guid.NewGuid().ToString("N")[..8]);
        settings["EventHubConnection"] = _hubs.ConnectionString;
        // Fail fast once the hub is gone: one retry (the host's retry policy does the rest). The stopped hub refuses
        // connections at once, so the try timeout stays the default: a short one would also bound the first connection,
        // which a loaded machine can take seconds to open.
        settings["Forwarding__MaxRetries"] = "1";
        _handler = InProcessHandler.Start(settings);
    }

    [Fact]
    public async Task Splitter_HubStopped_FailsTheInvocationAndItsRetryForwardsEveryReading()
    {
        var devices = Enumerable.Range(0, 20).Select(_ => Builders.Device("ws")).ToHashSet();
        var batch = PipelineDriver.Ingestion(Builders.Batch([.. devices.Select(d => Builders.Weather(d, 1))]));
        // A first invocation reads the hub's partitions and connects, so the failure below is a send's.
        var warm = Builders.Device("ws");
        Assert.Equal(HttpStatusCode.OK, (await PipelineDriver.SplitAsync(_handler!, [PipelineDriver.Ingestion(Builders.Batch(Builders.Weather(warm, 1)))])).Status);

        await _hubs!.StopAsync();
        var failed = await PipelineDriver.SplitAsync(_handler!, [batch]);

        Assert.Equal(HttpStatusCode.InternalServerError, failed.Status);
        Assert.Contains("weather", failed.LogText, StringComparison.Ordinal);

        await _hubs.RestartAsync();
        var retried = await PipelineDriver.SplitAsync(_handler!, [batch]);

        Assert.Equal(HttpStatusCode.OK, retried.Status);
        var landed = await _hubs.ReadAsync("weather", devices, devices.Count, TimeSpan.FromSeconds(30));
        Assert.Equal(devices.Order(StringComparer.Ordinal), landed.SelectMany(l => l.Envelope.Readings).Select(r => r.Reading.DeviceId).Order(StringComparer.Ordinal));
    }

    public async Task DisposeAsync()
    {
        _handler?.Dispose();
        if (_hubs is not null)
        {
            await _hubs.DisposeAsync();
        }
    }
}
