using System.Net;
using SensorPipeline.Functions.Tests.Infrastructure;
using SensorPipeline.Protos;

namespace SensorPipeline.Functions.Tests;

[Collection(PipelineGroup.Name)]
public sealed class SplitterFunctionTests(PipelineFixture fixture)
{
    [Fact]
    public async Task Splitter_MixedBatch_AnswersOneBase64EnvelopePerKind()
    {
        var weather = Builders.Device("ws");
        var seismic = Builders.Device("sm");
        var first = PipelineDriver.Ingestion(Builders.Batch(Builders.Weather(weather, 1), Builders.Seismic(seismic, 1), Builders.Weather(weather, 2)));
        var second = PipelineDriver.Ingestion(Builders.Batch(Builders.Weather(weather, 3)));

        var answer = await PipelineDriver.SplitAsync(fixture.Handler, [first, second], partitionId: "3");

        Assert.Equal(HttpStatusCode.OK, answer.Status);
        Assert.Equal(System.Text.Json.JsonValueKind.Null, answer.Body.GetProperty("ReturnValue").ValueKind);
        var weatherEnvelope = ForwardEnvelope.Parser.ParseFrom(answer.Output("weatherOut"));
        Assert.Equal(SensorKind.Weather, weatherEnvelope.Kind);
        Assert.Equal([1UL, 2UL, 3UL], weatherEnvelope.Readings.Select(r => r.Reading.Sequence));
        Assert.Equal([first.SequenceNumber, second.SequenceNumber], weatherEnvelope.Sources.Select(s => s.SequenceNumber));
        Assert.All(weatherEnvelope.Sources, s => Assert.Equal("3", s.PartitionId));
        Assert.Equal(first.EnqueuedTime.ToUnixTimeMilliseconds(), weatherEnvelope.Sources[0].EnqueuedTimeUnixMs);
        Assert.Equal([0U, 0U, 1U], weatherEnvelope.Readings.Select(r => r.SourceIndex));
        var seismicEnvelope = ForwardEnvelope.Parser.ParseFrom(answer.Output("seismicOut"));
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
    public async Task Splitter_PoisonOversizeAndInvalid_StoresDeadLettersWithReasonsAndForwardsTheRest()
    {
        var device = Builders.Device("ws");
        var poison = PipelineDriver.Ingestion([0xFF, 0xFF, 0xFF, 0x01]);
        // host.json maxEventBatchSize 100 gives each ingestion event ~9.8 KB of envelope; 200 readings take ~30 KB.
        var oversize = PipelineDriver.Ingestion(Builders.Batch([.. Enumerable.Range(1, 200).Select(i => Builders.Weather(device, (ulong)(100 + i)))]));
        var mixed = PipelineDriver.Ingestion(Builders.Batch(Builders.Weather(device, 1), Builders.Weather(device, 0)));

        var answer = await PipelineDriver.SplitAsync(fixture.Handler, [poison, oversize, mixed], partitionId: "1");

        Assert.Equal(HttpStatusCode.OK, answer.Status);
        Assert.Contains("dead letters 3", answer.LogText, StringComparison.Ordinal);
        var forwarded = ForwardEnvelope.Parser.ParseFrom(answer.Output("weatherOut"));
        Assert.Equal(1UL, Assert.Single(forwarded.Readings).Reading.Sequence);

        var poisonLetter = await ReadDeadLetterAsync($"splitter:1:{poison.SequenceNumber}");
        Assert.Equal("undecodable", poisonLetter.GetProperty("reason").GetString());
        Assert.Equal(poison.Body, poisonLetter.GetProperty("payloadBase64").GetBytesFromBase64());
        Assert.Equal(poison.SequenceNumber, poisonLetter.GetProperty("sequenceNumber").GetInt64());

        var oversizeLetter = await ReadDeadLetterAsync($"splitter:1:{oversize.SequenceNumber}");
        Assert.Equal("oversize", oversizeLetter.GetProperty("reason").GetString());
        Assert.Equal(oversize.Body, oversizeLetter.GetProperty("payloadBase64").GetBytesFromBase64());

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
    public async Task Splitter_MoreEventsThanHostJsonsMaxEventBatchSize_SplitsThemAll()
    {
        // An app setting (AzureFunctionsJobHost__extensions__eventHubs__maxEventBatchSize) can raise the batch size above
        // the host.json file the handler read: such a batch must never be refused, or it would be retried forever.
        var readings = Enumerable.Range(0, 150).Select(_ => Builders.Weather(Builders.Device("big"), 1)).ToList();
        var events = readings.Select(r => PipelineDriver.Ingestion(Builders.Batch(r))).ToList();

        var answer = await PipelineDriver.SplitAsync(fixture.Handler, events);

        Assert.Equal(HttpStatusCode.OK, answer.Status);
        Assert.Contains("Splitter: 150 events, 150 readings; weather 150", answer.LogText, StringComparison.Ordinal);
        var envelope = answer.Output("weatherOut") ?? throw new Xunit.Sdk.XunitException("no weather output");
        Assert.True(envelope.Length < 1024 * 1024, $"envelope of {envelope.Length} bytes");
    }

    private async Task<System.Text.Json.JsonElement> ReadDeadLetterAsync(string id) =>
        await fixture.Store.ReadAsync("deadletters", id, id) ?? throw new Xunit.Sdk.XunitException($"dead letter {id} not stored");
}
