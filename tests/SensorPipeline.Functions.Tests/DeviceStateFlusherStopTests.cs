using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using SensorPipeline.Functions.DeviceStates;

namespace SensorPipeline.Functions.Tests;

/// <summary>The device-state flusher's graceful stop when the host's stop token is cancelled (its shutdown timeout spent
/// writing a large backlog of pending states, as <c>bench functions ranges</c> did): the stop returns, and what it could
/// not finish is left to the recovery.</summary>
[Collection(PipelineGroup.Name)]
public sealed class DeviceStateFlusherStopTests(PipelineFixture fixture)
{
    [Fact]
    public async Task StopAsync_TokenCancelledBeforeItsMarkIsDeleted_ReturnsAndSaysItWasCutShort()
    {
        using var handler = InProcessHandler.Start(CustomHandlerProcess.Settings(fixture.StandIn, "stop-" + Guid.NewGuid().ToString("N")[..8]));
        var marks = handler.Services.GetRequiredService<PendingStatesMarks>();
        var flusher = handler.Services.GetServices<IHostedService>().OfType<DeviceStateFlusher>().Single();
        // The flusher's rounds renew the mark once a second from the start: it exists, with an ETag to delete it by.
        await Eventually.UntilAsync(async token => (await marks.ListAsync(token)).Any(m => m.Mark.Id == marks.Id),
            "the handler's pending-states mark", TimeSpan.FromMinutes(1));
        using var shutdownTimeout = new CancellationTokenSource();
        await shutdownTimeout.CancelAsync();

        await flusher.StopAsync(shutdownTimeout.Token);

        // Before the fix the stop threw TaskCanceledException out of the mark's delete. (Whether the mark is still in the
        // store afterwards is not asserted: in one run of three here it was gone, by a path not yet understood.)
        Assert.Contains("ran out of time", handler.Output, StringComparison.Ordinal);
    }
}
