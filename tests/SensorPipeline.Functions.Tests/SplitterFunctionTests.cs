using SensorPipeline.Core.Splitting;
using SensorPipeline.Protos;

namespace SensorPipeline.Functions.Tests;

[Collection(PipelineGroup.Name)]
public sealed class SplitterFunctionTests(PipelineFixture fixture)
{
    private static readonly TimeSpan ArrivalTimeout = TimeSpan.FromSeconds(30);

    [Fact]
    public async Task Splitter_MixedBatch_SendsEnvelopesPerKindToTheHubs()
    {
        var weather = Builders.Device("ws");
        var seismic = Builders.Device("sm");
        var first = PipelineDriver.Ingestion(Builders.Batch(Builders.Weather(weather, 1), Builders.Seismic(seismic, 1), Builders.Weather(weather, 2)));
        var second = PipelineDriver.Ingestion(Builders.Batch(Builders.Weather(weather, 3)));

        var answer = await PipelineDriver.SplitAsync(fixture.Handler, [first, second], partitionId: "3");

        Assert.Equal(HttpStatusCode.OK, answer.Status);
        Assert.Equal(System.Text.Json.JsonValueKind.Null, answer.Body.GetProperty("ReturnValue").ValueKind);
        Assert.Empty(answer.Body.GetProperty("Outputs").EnumerateObject());
        var weatherEnvelope = Assert.Single(await fixture.Hubs.ReadAsync("weather", new HashSet<string> { weather }, 3, ArrivalTimeout)).Envelope;
        Assert.Equal(SensorKind.Weather, weatherEnvelope.Kind);
        Assert.Equal([1UL, 2UL, 3UL], weatherEnvelope.Readings.Select(r => r.Reading.Sequence));
        Assert.Equal([first.SequenceNumber, second.SequenceNumber], weatherEnvelope.Sources.Select(s => s.SequenceNumber));
        Assert.All(weatherEnvelope.Sources, s => Assert.Equal("3", s.PartitionId));
        Assert.Equal(first.EnqueuedTime.ToUnixTimeMilliseconds(), weatherEnvelope.Sources[0].EnqueuedTimeUnixMs);
        Assert.Equal([0U, 0U, 1U], weatherEnvelope.Readings.Select(r => r.SourceIndex));
        var seismicEnvelope = Assert.Single(await fixture.Hubs.ReadAsync("seismic", new HashSet<string> { seismic }, 1, ArrivalTimeout)).Envelope;
        Assert.Equal(SensorKind.Seismic, seismicEnvelope.Kind);
        Assert.Equal(seismic, Assert.Single(seismicEnvelope.Readings).Reading.DeviceId);
    }

    [Fact]
    public async Task Splitter_ReadingsOfManyDevicesOverSeveralInvocations_EachDeviceLandsOnItsOnePartition()
    {
        // loadgen's shape: every event holds each device once, so without affinity a device's readings spread over the
        // hub's partitions; with it they all land on the partition its id hashes to, whichever invocation sent them.
        var devices = Enumerable.Range(0, 40).Select(_ => Builders.Device("ws")).ToList();
        for (var round = 1; round <= 3; round++)
        {
            var batch = Builders.Batch([.. devices.Select(d => Builders.Weather(d, (ulong)round))]);
            var answer = await PipelineDriver.SplitAsync(fixture.Handler, [PipelineDriver.Ingestion(batch)], partitionId: round.ToString(System.Globalization.CultureInfo.InvariantCulture));
            Assert.Equal(HttpStatusCode.OK, answer.Status);
        }

        var landed = await fixture.Hubs.ReadAsync("weather", devices.ToHashSet(), devices.Count * 3, ArrivalTimeout);

        var partitionsByDevice = landed
            .SelectMany(l => l.Envelope.Readings.Select(r => (Device: r.Reading.DeviceId, l.PartitionId)))
            .GroupBy(x => x.Device)
            .ToDictionary(g => g.Key, g => g.Select(x => x.PartitionId).Distinct().ToList());
        Assert.Equal(devices.Count, partitionsByDevice.Count);
        Assert.All(devices, d => Assert.Equal(
            DevicePartitioner.PartitionOf(System.Text.Encoding.UTF8.GetBytes(d), 4).ToString(System.Globalization.CultureInfo.InvariantCulture),
            Assert.Single(partitionsByDevice[d])));
        Assert.True(partitionsByDevice.Values.Select(p => p[0]).Distinct().Count() > 1, "40 devices all hashed to one partition");
        // One envelope per partition and invocation: a partition's readings travel together.
        Assert.Equal(landed.Count, landed.Select(l => (l.PartitionId, l.Envelope.Sources[0].PartitionId)).Distinct().Count());
    }

    [Fact]
    public async Task Splitter_PoisonLargeAndInvalid_StoresDeadLettersWithReasonsAndForwardsTheRest()
    {
        var device = Builders.Device("ws");
        var poison = PipelineDriver.Ingestion([0xFF, 0xFF, 0xFF, 0x01]);
        // 300 readings (~30 KB): more than one envelope holds (250), so split over two envelopes.
        var large = PipelineDriver.Ingestion(Builders.Batch([.. Enumerable.Range(1, 300).Select(i => Builders.Weather(device, (ulong)(100 + i)))]));
        var mixed = PipelineDriver.Ingestion(Builders.Batch(Builders.Weather(device, 1), Builders.Weather(device, 0)));

        var answer = await PipelineDriver.SplitAsync(fixture.Handler, [poison, large, mixed], partitionId: "1");

        Assert.Equal(HttpStatusCode.OK, answer.Status);
        Assert.Contains("dead letters 2", answer.LogText, StringComparison.Ordinal);
        var forwarded = await fixture.Hubs.ReadAsync("weather", new HashSet<string> { device }, 301, ArrivalTimeout);
        Assert.Equal(2, forwarded.Count);
        Assert.Single(forwarded.Select(f => f.PartitionId).Distinct());
        Assert.Equal([.. Enumerable.Range(101, 300).Select(i => (ulong)i), 1UL], forwarded.SelectMany(e => e.Envelope.Readings).Select(r => r.Reading.Sequence));

        var poisonLetter = await ReadDeadLetterAsync($"splitter:1:{poison.SequenceNumber}");
        Assert.Equal("undecodable", poisonLetter.GetProperty("reason").GetString());
        Assert.Equal(poison.Body, poisonLetter.GetProperty("payloadBase64").GetBytesFromBase64());
        Assert.Equal(poison.SequenceNumber, poisonLetter.GetProperty("sequenceNumber").GetInt64());

        var invalidLetter = await ReadDeadLetterAsync($"splitter:1:{mixed.SequenceNumber}:1");
        Assert.Equal("zero-sequence", invalidLetter.GetProperty("reason").GetString());
        Assert.Equal(device, invalidLetter.GetProperty("deviceId").GetString());
    }

    [Fact]
    public async Task Splitter_MoreEventsThanMaxEventBatchSize_IsSplitAllTheSame()
    {
        // The host never sends more than maxEventBatchSize, but a batch size changed in host.json without a handler
        // restart must not become a 400 the host retries forever: any batch splits correctly.
        var devices = Enumerable.Range(0, 101).Select(_ => Builders.Device("ws")).ToHashSet();
        var events = devices.Select(d => PipelineDriver.Ingestion(Builders.Batch(Builders.Weather(d, 1)))).ToList();

        var answer = await PipelineDriver.SplitAsync(fixture.Handler, events);

        Assert.Equal(HttpStatusCode.OK, answer.Status);
        var landed = await fixture.Hubs.ReadAsync("weather", devices, 101, ArrivalTimeout);
        Assert.Equal(101, landed.Sum(l => l.Envelope.Readings.Count));
    }

    private async Task<System.Text.Json.JsonElement> ReadDeadLetterAsync(string id) =>
        await fixture.Store.ReadAsync("deadletters", id, id) ?? throw new Xunit.Sdk.XunitException($"dead letter {id} not stored");
}
