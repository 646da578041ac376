namespace SensorPipeline.Functions.Tests;

/// <summary>The real handler reading a request body as it streams in: a cut body is refused whole, nothing half-written.</summary>
[Collection(PipelineGroup.Name)]
public sealed class StreamedRequestHandlerTests(PipelineFixture fixture)
{
    [Fact]
    public async Task WeatherProcessor_BodyCutShortThenSentWhole_Answers400StoringNothingThenStoresAll()
    {
        var device = Builders.Device("ws");
        var envelope = PipelineDriver.WeatherEnvelope(
            PipelineDriver.Ingestion(Builders.Batch([.. Enumerable.Range(1, 200).Select(i => Builders.Weather(device, (ulong)i))])));
        var body = HostRequest.Build("WeatherProcessor", "weather", "weather-processor", "0", [envelope]);

        // Cut inside the events' text: the events parsed so far must not be processed.
        var cut = await PipelineDriver.InvokeAsync(fixture.Handler, "WeatherProcessor", body[..(body.Length / 2)]);

        Assert.Equal(HttpStatusCode.BadRequest, cut.Status);
        Assert.Contains("not well-formed JSON", cut.LogText, StringComparison.Ordinal);
        Assert.Null(await fixture.Store.ReadAsync("devices", device, device));

        // The host retries the same batch: everything is stored.
        var whole = await PipelineDriver.InvokeAsync(fixture.Handler, "WeatherProcessor", body);

        Assert.Equal(HttpStatusCode.OK, whole.Status);
        Assert.Contains("200 readings; live 200", whole.LogText, StringComparison.Ordinal);
        var state = await fixture.Store.ReadAsync("devices", device, device) ?? throw new Xunit.Sdk.XunitException("no device state");
        Assert.Equal(200UL, state.GetProperty("properties").GetProperty("sequence").GetUInt64());
    }
}
