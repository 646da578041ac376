using System.Net;
using SensorPipeline.Functions.Tests.Infrastructure;
using SensorPipeline.Protos;

namespace SensorPipeline.Functions.Tests;

/// <summary>The splitter's dead letters, through the handler process into the Cosmos DB emulator; its answers to the
/// host, which need no store, are in <see cref="SplitterContractTests"/>.</summary>
[Collection(PipelineGroup.Name)]
public sealed class SplitterFunctionTests(PipelineFixture fixture)
{
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

    private async Task<System.Text.Json.JsonElement> ReadDeadLetterAsync(string id) =>
        await fixture.Store.ReadAsync("deadletters", id, id) ?? throw new Xunit.Sdk.XunitException($"dead letter {id} not stored");
}
