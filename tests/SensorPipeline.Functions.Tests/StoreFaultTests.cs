using Google.Protobuf;
using SensorPipeline.Core.DeviceStates;
using SensorPipeline.Core.Processing;

namespace SensorPipeline.Functions.Tests;

/// <summary>The handler writing through <see cref="FaultProxy"/> to a stand-in of its own.</summary>
public sealed class FaultFixture() : SingleHandlerFixture("faults")
{
    private FaultProxy? _proxy;

    internal FaultProxy Proxy => _proxy ?? throw new InvalidOperationException("not started");

    internal override async Task ConfigureAsync(CosmosEmulatorProcess standIn, Dictionary<string, string?> settings)
    {
        _proxy = await FaultProxy.StartAsync(standIn.Endpoint);
        settings["Cosmos__AccountEndpoint"] = _proxy.Address.AbsoluteUri;
    }

    public override async Task DisposeAsync()
    {
        // The handler first: stopping, it writes what is pending and deletes its mark through the proxy.
        await base.DisposeAsync();
        if (_proxy is not null)
        {
            await _proxy.DisposeAsync();
            _proxy = null;
        }
    }
}

[CollectionDefinition(Name)]
public sealed class FaultGroup : ICollectionFixture<FaultFixture>
{
    public const string Name = "faults";
}

[Collection(FaultGroup.Name)]
public sealed class StoreFaultTests(FaultFixture fixture)
{
    [Fact]
    public Task WeatherProcessor_BatchRedeliveredStaleAfterItsPointWrites_DevicesGetTheNewestLiveReading() =>
        // No fault: this fixture's handler keeps the default bulk threshold, so the scenario's few writes go as point operations.
        ProcessorFunctionTests.BatchRedeliveredStaleAfterItsReadingsWereWrittenAsync(fixture.Handler, fixture.Store);

    [Fact]
    public async Task WeatherProcessor_StoreRejectsOneDevicesDocuments_DeadLettersThemAndWritesTheRest()
    {
        var rejected = Builders.Device("reject-me");
        var fine = Builders.Device("ws");
        fixture.Proxy.RejectWritesContaining(rejected);
        var envelope = PipelineDriver.WeatherEnvelope(
            PipelineDriver.Ingestion(Builders.Batch(Builders.Weather(fine, 1), Builders.Weather(rejected, 1), Builders.Weather(fine, 2))));

        var answer = await PipelineDriver.ProcessAsync(fixture.Handler, "WeatherProcessor", [envelope], partitionId: "5");

        Assert.Equal(HttpStatusCode.OK, answer.Status);
        // The rejected device's reading is a dead letter and, with no reading stored, it gets no state; the other device is untouched.
        Assert.Contains("live 2, archived 0, device states 1 pending, dead letters 1", answer.LogText, StringComparison.Ordinal);
        Assert.NotNull(await fixture.Store.ReadAsync("readings", Builders.ReadingId(fine, 2), fine));
        Assert.NotNull(await fixture.Store.ReadAsync("devices", fine, fine));
        Assert.Null(await fixture.Store.ReadAsync("readings", Builders.ReadingId(rejected, 1), rejected));
        var id = $"weather-processor-store:5:{envelope.SequenceNumber}:1";
        var letter = await fixture.Store.ReadAsync("deadletters", id, id) ?? throw new Xunit.Sdk.XunitException("dead letter not stored");
        Assert.Equal("rejected-by-store", letter.GetProperty("reason").GetString());
        Assert.Equal(rejected, letter.GetProperty("deviceId").GetString());
        Assert.Contains("413", letter.GetProperty("detail").GetString(), StringComparison.Ordinal);
        Assert.Contains(Builders.ReadingId(rejected, 1), letter.GetProperty("detail").GetString(), StringComparison.Ordinal);
        // The reading's own bytes, not the refused document: what redrive re-sends to the ingestion hub after a fix.
        Assert.Equal(Builders.Weather(rejected, 1).ToByteArray(), letter.GetProperty("payloadBase64").GetBytesFromBase64());
        Assert.Null(await fixture.Store.ReadAsync("devices", rejected, rejected));
        Assert.Equal([id], await fixture.Store.DeadLetterIdsAsync(rejected));
    }

    [Fact]
    public async Task WeatherProcessor_StoreRefusesTheNewestReading_DeviceStateIsTheNewestStoredReading()
    {
        var device = Builders.Device("refused-newest");
        fixture.Proxy.RejectWritesContaining(Builders.ReadingId(device, 2));
        var envelope = PipelineDriver.WeatherEnvelope(
            PipelineDriver.Ingestion(Builders.Batch(Builders.Weather(device, 1), Builders.Weather(device, 2))));

        var answer = await PipelineDriver.ProcessAsync(fixture.Handler, "WeatherProcessor", [envelope]);

        Assert.Equal(HttpStatusCode.OK, answer.Status);
        Assert.Null(await fixture.Store.ReadAsync("readings", Builders.ReadingId(device, 2), device));
        // The state never points at a reading the store refused: it is the newest reading stored, sequence 1.
        var state = await fixture.Store.ReadAsync("devices", device, device) ?? throw new Xunit.Sdk.XunitException("no device state");
        Assert.Equal(1, state.GetProperty("properties").GetProperty("sequence").GetInt32());
    }

    [Fact]
    public async Task WeatherProcessor_DeviceStateRefusedInTwoBatchShapes_OneDeadLetterUnderOneId()
    {
        var device = Builders.Device("state-refused");
        var other = Builders.Device("in-front");
        // Only the device document carries "readingId": its reading is stored, its state refused for good.
        fixture.Proxy.RejectWritesContaining($"\"readingId\":\"{Builders.ReadingId(device, 1)}\"");
        var front = PipelineDriver.WeatherEnvelope(PipelineDriver.Ingestion(Builders.Batch(Builders.Weather(other, 1))));
        var envelope = PipelineDriver.WeatherEnvelope(PipelineDriver.Ingestion(Builders.Batch(Builders.Weather(device, 1))));

        // The same envelope redelivered in another batch shape: alone (as poison isolation runs it), then behind another.
        Assert.Equal(HttpStatusCode.OK, (await PipelineDriver.ProcessAsync(fixture.Handler, "WeatherProcessor", [envelope], partitionId: "6")).Status);
        Assert.Equal(HttpStatusCode.OK, (await PipelineDriver.ProcessAsync(fixture.Handler, "WeatherProcessor", [front, envelope], partitionId: "6")).Status);

        Assert.NotNull(await fixture.Store.ReadAsync("readings", Builders.ReadingId(device, 1), device));
        var letters = await fixture.Store.DeadLetterIdsAsync(device);
        Assert.Equal([$"weather-processor-store:6:{envelope.SequenceNumber}:0"], letters);
    }

    [Fact]
    public async Task WeatherProcessor_StoreThrottles_RetriesWithinTheInvocationAndSucceeds()
    {
        var device = Builders.Device("throttle-me");
        fixture.Proxy.ThrottleWritesContaining(device, 3);
        var envelope = PipelineDriver.WeatherEnvelope(PipelineDriver.Ingestion(Builders.Batch(Builders.Weather(device, 1))));
        var throttledBefore = fixture.Proxy.ThrottlesSent;

        var answer = await PipelineDriver.ProcessAsync(fixture.Handler, "WeatherProcessor", [envelope]);

        Assert.Equal(HttpStatusCode.OK, answer.Status);
        Assert.Equal(3, fixture.Proxy.ThrottlesSent - throttledBefore);
        Assert.NotNull(await fixture.Store.ReadAsync("readings", Builders.ReadingId(device, 1), device));
        Assert.NotNull(await fixture.Store.ReadAsync("devices", device, device));
    }

    /// <summary>The store took the pending-states mark's create but its answer never arrived (a timeout after the write
    /// landed): the retry's create finds the mark there (409), and the handler carries on with a new mark instead of
    /// failing every invocation from then on. A handler of the test's own, in-process.</summary>
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
