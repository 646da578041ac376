using System.Net;
using SensorPipeline.Functions.Tests.Infrastructure;
using SensorPipeline.Protos;

namespace SensorPipeline.Functions.Tests;

[Collection(PipelineGroup.Name)]
public sealed class SplitterFunctionTests(PipelineFixture fixture)
{
    [Fact]
    public async Task Splitter_MixedBatch_AnswersAnArrayOfTextEnvelopesPerKind()
    {
        var weather = Builders.Device("ws");
        var seismic = Builders.Device("sm");
        var first = PipelineDriver.Ingestion(Builders.Batch(Builders.Weather(weather, 1), Builders.Seismic(seismic, 1), Builders.Weather(weather, 2)));
        var second = PipelineDriver.Ingestion(Builders.Batch(Builders.Weather(weather, 3)));

        var answer = await PipelineDriver.SplitAsync(fixture.Handler, [first, second], partitionId: "3");

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
        var answer = await PipelineDriver.SplitAsync(fixture.Handler, [PipelineDriver.Ingestion(Builders.Batch(Builders.Weather(Builders.Device("ws"), 1)))]);

        Assert.Equal(HttpStatusCode.OK, answer.Status);
        Assert.NotNull(answer.Output("weatherOut"));
        Assert.False(answer.Body.GetProperty("Outputs").TryGetProperty("seismicOut", out _));
    }

    [Fact]
    public async Task Splitter_PoisonLargeAndInvalid_StoresDeadLettersWithReasonsAndForwardsTheRest()
    {
        var device = Builders.Device("ws");
        var poison = PipelineDriver.Ingestion([0xFF, 0xFF, 0xFF, 0x01]);
        // 300 readings (~30 KB): dead-lettered whole as oversize before text envelopes; now split over two envelopes.
        var large = PipelineDriver.Ingestion(Builders.Batch([.. Enumerable.Range(1, 300).Select(i => Builders.Weather(device, (ulong)(100 + i)))]));
        var mixed = PipelineDriver.Ingestion(Builders.Batch(Builders.Weather(device, 1), Builders.Weather(device, 0)));

        var answer = await PipelineDriver.SplitAsync(fixture.Handler, [poison, large, mixed], partitionId: "1");

        Assert.Equal(HttpStatusCode.OK, answer.Status);
        Assert.Contains("dead letters 2", answer.LogText, StringComparison.Ordinal);
        var forwarded = answer.Envelopes("weatherOut");
        Assert.Equal(2, forwarded.Count);
        Assert.Equal([.. Enumerable.Range(101, 300).Select(i => (ulong)i), 1UL], forwarded.SelectMany(e => e.Readings).Select(r => r.Reading.Sequence));

        var poisonLetter = await ReadDeadLetterAsync($"splitter:1:{poison.SequenceNumber}");
        Assert.Equal("undecodable", poisonLetter.GetProperty("reason").GetString());
        Assert.Equal(poison.Body, poisonLetter.GetProperty("payloadBase64").GetBytesFromBase64());
        Assert.Equal(poison.SequenceNumber, poisonLetter.GetProperty("sequenceNumber").GetInt64());

        var invalidLetter = await ReadDeadLetterAsync($"splitter:1:{mixed.SequenceNumber}:1");
        Assert.Equal("zero-sequence", invalidLetter.GetProperty("reason").GetString());
        Assert.Equal(device, invalidLetter.GetProperty("deviceId").GetString());
    }

    [Fact]
    public async Task Splitter_MalformedRequest_Answers400()
    {
        var answer = await PipelineDriver.InvokeAsync(fixture.Handler, "Splitter", """{"Data":{},"Metadata":{}}"""u8.ToArray());

        Assert.Equal(HttpStatusCode.BadRequest, answer.Status);
        Assert.Contains("Data.events", answer.LogText, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Splitter_MoreEventsThanMaxEventBatchSize_IsSplitAllTheSame()
    {
        // The host never sends more than maxEventBatchSize, but a batch size changed in host.json without a handler
        // restart must not become a 400 the host retries forever: any batch splits correctly.
        var events = Enumerable.Range(0, 101).Select(_ => PipelineDriver.Ingestion(Builders.Batch(Builders.Weather(Builders.Device("ws"), 1)))).ToList();

        var answer = await PipelineDriver.SplitAsync(fixture.Handler, events);

        Assert.Equal(HttpStatusCode.OK, answer.Status);
        Assert.Equal(101, answer.Envelopes("weatherOut").Sum(e => e.Readings.Count));
    }

    private async Task<System.Text.Json.JsonElement> ReadDeadLetterAsync(string id) =>
        await fixture.Store.ReadAsync("deadletters", id, id) ?? throw new Xunit.Sdk.XunitException($"dead letter {id} not stored");
}
