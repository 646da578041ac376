using System.Net;
using SensorPipeline.Core.Processing;
using SensorPipeline.Functions.Tests.Infrastructure;

namespace SensorPipeline.Functions.Tests;

/// <summary>
/// The handler's pending-states mark when the store took its create but the answer never arrived (a timeout after the
/// write landed): the retry's create finds the mark there (409), and the handler carries on with a new mark instead of
/// failing every invocation from then on. A handler of the test's own, in-process, writing through the fault proxy.
/// </summary>
[Collection(FaultGroup.Name)]
public sealed class PendingStatesMarkTests(FaultFixture fixture)
{
    [Fact]
    public async Task WeatherProcessor_MarkCreateTakenButItsAnswerLost_CommitsOnANewMark()
    {
        // The fixture's handler makes its own mark first, so the one create left to catch is this test's handler's.
        var warm = Builders.Device("mark-warm");
        Assert.Equal(HttpStatusCode.OK, (await PipelineDriver.ProcessAsync(fixture.Handler, "WeatherProcessor",
            [PipelineDriver.WeatherEnvelope(PipelineDriver.Ingestion(Builders.Batch(Builders.Weather(warm, 1))))], partitionId: "28")).Status);
        var settings = CustomHandlerProcess.Settings(fixture.StandIn, fixture.Database);
        settings["Cosmos__AccountEndpoint"] = fixture.Proxy.Address.AbsoluteUri;
        await using var handler = InProcessHandler.Start(settings);
        var lost = fixture.Proxy.LoseAnswerToNextCreateContaining(PendingStatesMark.PartitionKey);
        var device = Builders.Device("mark-lost");
        var envelope = PipelineDriver.WeatherEnvelope(PipelineDriver.Ingestion(Builders.Batch(Builders.Weather(device, 1))));

        var first = await PipelineDriver.ProcessAsync(handler, "WeatherProcessor", [envelope], partitionId: "29");
        var next = await PipelineDriver.ProcessAsync(handler, "WeatherProcessor",
            [PipelineDriver.WeatherEnvelope(PipelineDriver.Ingestion(Builders.Batch(Builders.Weather(device, 2))))], partitionId: "29");

        Assert.True(lost.IsCompleted, "the proxy lost no create's answer: the test did not reach its case");
        Assert.True(first.Status == HttpStatusCode.OK, first.LogText);
        Assert.True(next.Status == HttpStatusCode.OK, next.LogText);
        await handler.DeviceStatesDurableAsync();
        var state = await fixture.Store.ReadAsync("devices", device, device) ?? throw new Xunit.Sdk.XunitException("no device state");
        Assert.Equal(2UL, state.GetProperty("properties").GetProperty("sequence").GetUInt64());
    }
}
