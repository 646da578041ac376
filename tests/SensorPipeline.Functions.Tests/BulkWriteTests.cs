using System.Net.Http.Json;
using SensorPipeline.Clients;

namespace SensorPipeline.Functions.Tests;

/// <summary>
/// The handler writing every phase through the bulk client (<c>Pipeline__BulkMinimumDocuments=1</c>) to an emulator of
/// its own, whose per-document faults fail single operations inside a bulk request as the service does.
/// </summary>
public sealed class BulkFixture() : SingleHandlerFixture("bulk")
{
    internal override Task ConfigureAsync(CosmosEmulatorProcess standIn, Dictionary<string, string?> settings)
    {
        settings["Pipeline__BulkMinimumDocuments"] = "1";
        // Enough quick retries to outlast a 2 s storm at any luck: 20 × ≤ 200 ms.
        ShortRetries(settings, 20, maxDelay: "00:00:00.200");
        return Task.CompletedTask;
    }

    /// <summary>Asks the emulator for a fault (<c>POST /_emulator/faults</c>); disposing the result clears it.</summary>
    internal async Task<IAsyncDisposable> FaultAsync(object fault)
    {
        var admin = CosmosClients.EmulatorAdminClient(StandIn.Endpoint);
        using var injected = await admin.PostAsJsonAsync("_emulator/faults", fault);
        Assert.Equal(HttpStatusCode.NoContent, injected.StatusCode);
        return new Clear(admin);
    }

    private sealed class Clear(HttpClient admin) : IAsyncDisposable
    {
        public async ValueTask DisposeAsync()
        {
            using var cleared = await admin.DeleteAsync("_emulator/faults");
            admin.Dispose();
        }
    }
}

public sealed class BulkWriteTests(BulkFixture fixture) : IClassFixture<BulkFixture>
{
    [Fact]
    public async Task WeatherProcessor_StoreRefusesOneDocumentOfABulkRequest_DeadLettersItAndStoresTheRest()
    {
        var poison = Builders.Device("bulk-poison");
        var fine = Enumerable.Range(0, 6).Select(_ => Builders.Device("bulk-fine")).ToArray();
        var readings = fine.SelectMany(device => Enumerable.Range(1, 5).Select(s => Builders.Weather(device, (ulong)s)))
            .Append(Builders.Weather(poison, 1)).ToArray();
        var envelope = PipelineDriver.WeatherEnvelope(PipelineDriver.Ingestion(Builders.Batch(readings)));

        InvocationAnswer answer;
        // The reading document alone (its id opens it): the device document and the dead letter, which name the device too, get through.
        await using (await fixture.FaultAsync(new { status = 413, seconds = 60, documentContains = $"\"id\":\"{poison}:" }))
        {
            answer = await PipelineDriver.ProcessAsync(fixture.Handler, "WeatherProcessor", [envelope], partitionId: "7");
        }

        Assert.Equal(HttpStatusCode.OK, answer.Status);
        // 31 readings in bulk: the poison reading is refused, every other document stored; its device gets no state (it has
        // no stored reading), the other six do.
        Assert.Contains("live 30, archived 0, device states 6 pending, dead letters 1", answer.LogText, StringComparison.Ordinal);
        foreach (var device in fine)
        {
            Assert.Equal(5, (await fixture.Store.IdsAsync("readings", device)).Count);
            Assert.NotNull(await fixture.Store.ReadAsync("devices", device, device));
        }

        Assert.Empty(await fixture.Store.IdsAsync("readings", poison));
        var id = $"weather-processor-store:7:{envelope.SequenceNumber}:30";
        var letter = await fixture.Store.ReadAsync("deadletters", id, id) ?? throw new Xunit.Sdk.XunitException("dead letter not stored");
        Assert.Equal("rejected-by-store", letter.GetProperty("reason").GetString());
        Assert.Equal(poison, letter.GetProperty("deviceId").GetString());
        Assert.Contains("413", letter.GetProperty("detail").GetString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task WeatherProcessor_ThrottleStormInsideBulkRequests_RetriedWithoutLoss()
    {
        var devices = Enumerable.Range(0, 10).Select(_ => Builders.Device("storm")).ToArray();
        var readings = devices.SelectMany(device => Enumerable.Range(1, 8).Select(s => Builders.Weather(device, (ulong)s))).ToArray();
        var envelope = PipelineDriver.WeatherEnvelope(PipelineDriver.Ingestion(Builders.Batch(readings)));
        var throttledBefore = Throttled();

        InvocationAnswer answer;
        // Half of the writes of these devices answer 429 inside otherwise successful bulk requests, for 2 seconds.
        await using (await fixture.FaultAsync(new { status = 429, seconds = 2, probability = 0.5, retryAfterMs = 20, documentContains = "storm-" }))
        {
            answer = await PipelineDriver.ProcessAsync(fixture.Handler, "WeatherProcessor", [envelope]);
        }

        Assert.Equal(HttpStatusCode.OK, answer.Status);
        Assert.Contains("live 80, archived 0, device states 10 pending, dead letters 0", answer.LogText, StringComparison.Ordinal);
        Assert.True(Throttled() > throttledBefore, "no write was throttled: the storm missed the invocation");
        foreach (var device in devices)
        {
            Assert.Equal(8, (await fixture.Store.IdsAsync("readings", device)).Count);
            var state = await fixture.Store.ReadAsync("devices", device, device) ?? throw new Xunit.Sdk.XunitException("device state not stored");
            Assert.Equal(8UL, state.GetProperty("properties").GetProperty("sequence").GetUInt64());
        }
    }

    private int Throttled() => fixture.Handler.Output.Split("answered 429").Length - 1;
}
