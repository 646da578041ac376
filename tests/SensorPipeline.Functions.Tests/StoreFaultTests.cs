using Google.Protobuf;
using System.Net;
using SensorPipeline.Functions.Tests.Infrastructure;

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
        if (_proxy is not null)
        {
            await _proxy.DisposeAsync();
            _proxy = null;
        }

        await base.DisposeAsync();
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
        // The reading and the device state of the rejected device: two dead letters; the other device is untouched.
        Assert.Contains("live 2, archived 0, devices 1 updated / 0 superseded, dead letters 2", answer.LogText, StringComparison.Ordinal);
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
        var deviceId = $"weather-processor-store:5:{envelope.SequenceNumber}:4"; // after the 3 readings, the second device state
        var deviceLetter = await fixture.Store.ReadAsync("deadletters", deviceId, deviceId) ?? throw new Xunit.Sdk.XunitException("device dead letter not stored");
        Assert.Equal(Builders.Weather(rejected, 1).ToByteArray(), deviceLetter.GetProperty("payloadBase64").GetBytesFromBase64());
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
}
