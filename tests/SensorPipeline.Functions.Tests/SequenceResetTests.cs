using Google.Protobuf.WellKnownTypes;
using SensorPipeline.Core.GeoJson;

namespace SensorPipeline.Functions.Tests;

/// <summary>A device whose sequence counter restarts, through the real handler and store.</summary>
[Collection(PipelineGroup.Name)]
public sealed class SequenceResetTests(PipelineFixture fixture)
{
    [Fact]
    public async Task WeatherProcessor_SequenceRestartsThenRedelivered_NothingOverwrittenNothingAdded()
    {
        var device = Builders.Device("ws");
        var beforeReboot = Builders.Weather(device, 1);
        var afterReboot = Builders.Weather(device, 1);
        var rebootedAt = Builders.Observed.AddHours(3);
        afterReboot.ObservedAt = Timestamp.FromDateTimeOffset(rebootedAt);
        afterReboot.Weather.TemperatureC = -7.5;

        var first = await PipelineDriver.ProcessAsync(fixture.Handler, "WeatherProcessor",
            [PipelineDriver.WeatherEnvelope(PipelineDriver.Ingestion(Builders.Batch(beforeReboot)))]);
        var afterResetEnvelope = PipelineDriver.WeatherEnvelope(PipelineDriver.Ingestion(Builders.Batch(afterReboot)));
        var second = await PipelineDriver.ProcessAsync(fixture.Handler, "WeatherProcessor", [afterResetEnvelope]);
        var replayed = await PipelineDriver.ProcessAsync(fixture.Handler, "WeatherProcessor", [afterResetEnvelope], retryCount: 1);

        Assert.All([first, second, replayed], a => Assert.Equal(HttpStatusCode.OK, a.Status));
        var rebootedId = DocumentIds.ReadingId(device, 1, rebootedAt);
        Assert.Equal(new[] { Builders.ReadingId(device, 1), rebootedId }.Order(), (await fixture.Store.IdsAsync("readings", device)).Order());
        var older = await fixture.Store.ReadAsync("readings", Builders.ReadingId(device, 1), device) ?? throw new Xunit.Sdk.XunitException("the reading before the reset is gone");
        Assert.Equal(12.5, older.GetProperty("properties").GetProperty("temperatureC").GetDouble());
        var newer = await fixture.Store.ReadAsync("readings", rebootedId, device) ?? throw new Xunit.Sdk.XunitException("the reading after the reset is missing");
        Assert.Equal(-7.5, newer.GetProperty("properties").GetProperty("temperatureC").GetDouble());
        var state = await fixture.Store.ReadAsync("devices", device, device) ?? throw new Xunit.Sdk.XunitException("no device state");
        Assert.Equal(rebootedId, state.GetProperty("properties").GetProperty("readingId").GetString());
    }
}
