using System.Net;
using SensorPipeline.Functions.Tests.Infrastructure;
using SensorPipeline.Protos;

namespace SensorPipeline.Functions.Tests;

/// <summary>The splitter's answers to the host (outputs per kind, 400 for a malformed request, any batch size), on
/// the handler in-process: none of them reaches the store or depends on Kestrel's limits.</summary>
[Trait("Category", "Fast")]
public sealed class SplitterContractTests(InProcessHandler handler) : IClassFixture<InProcessHandler>
{
    [Fact]
    public async Task Splitter_MixedBatch_AnswersAnArrayOfTextEnvelopesPerKind()
    {
        var weather = Builders.Device("ws");
        var seismic = Builders.Device("sm");
        var first = PipelineDriver.Ingestion(Builders.Batch(Builders.Weather(weather, 1), Builders.Seismic(seismic, 1), Builders.Weather(weather, 2)));
        var second = PipelineDriver.Ingestion(Builders.Batch(Builders.Weather(weather, 3)));

        var answer = await PipelineDriver.SplitAsync(handler, [first, second], partitionId: "3");

        Assert.Equal(HttpStatusCode.OK, answer.Status);
        Assert.Equal(System.Text.Json.JsonValueKind.Null, answer.Body.GetProperty("ReturnValue").ValueKind);
        var weatherEnvelope = Assert.Single(answer.Envelopes("weatherOut"));
        Assert.Equal(SensorKind.Weather, weatherEnvelope.Kind);
        Assert.Equal([1UL, 2UL, 3UL], weatherEnvelope.Readings.Select(r => r.Reading.Sequence));
        Assert.Equal([first.SequenceNumber, second.SequenceNumber], weatherEnvelope.Sources.Select(s => s.SequenceNumber));
        Assert.All(weatherEnvelope.Sources, s => Assert.Equal("3", s.PartitionId));
        Assert.Equal(first.EnqueuedTime.ToUnixTimeMilliseconds(), weatherEnvelope.Sources[0].EnqueuedTimeUnixMs);
        Assert.Equal([0U, 0U, 1U], weatherEnvelope.Readings.Select(r => r.SourceIndex));
        var seismicEnvelope = Assert.Single(answer.Envelopes("seismicOut"));
        Assert.Equal(SensorKind.Seismic, seismicEnvelope.Kind);
        Assert.Equal(seismic, Assert.Single(seismicEnvelope.Readings).Reading.DeviceId);
    }

    [Fact]
    public async Task Splitter_OnlyWeather_OmitsTheSeismicOutput()
    {
        var answer = await PipelineDriver.SplitAsync(handler, [PipelineDriver.Ingestion(Builders.Batch(Builders.Weather(Builders.Device("ws"), 1)))]);

        Assert.Equal(HttpStatusCode.OK, answer.Status);
        Assert.NotNull(answer.Output("weatherOut"));
        Assert.False(answer.Body.GetProperty("Outputs").TryGetProperty("seismicOut", out _));
    }

    [Fact]
    public async Task Splitter_MalformedRequest_Answers400()
    {
        var answer = await PipelineDriver.InvokeAsync(handler, "Splitter", """{"Data":{},"Metadata":{}}"""u8.ToArray());

        Assert.Equal(HttpStatusCode.BadRequest, answer.Status);
        Assert.Contains("Data.events", answer.LogText, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Splitter_MoreEventsThanMaxEventBatchSize_IsSplitAllTheSame()
    {
        // The host never sends more than maxEventBatchSize, but a batch size changed in host.json without a handler
        // restart must not become a 400 the host retries forever: any batch splits correctly.
        var events = Enumerable.Range(0, 101).Select(_ => PipelineDriver.Ingestion(Builders.Batch(Builders.Weather(Builders.Device("ws"), 1)))).ToList();

        var answer = await PipelineDriver.SplitAsync(handler, events);

        Assert.Equal(HttpStatusCode.OK, answer.Status);
        Assert.Equal(101, answer.Envelopes("weatherOut").Sum(e => e.Readings.Count));
    }
}
