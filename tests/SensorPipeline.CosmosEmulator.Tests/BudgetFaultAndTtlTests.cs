using System.Net.Http.Json;
using Microsoft.Azure.Cosmos;

namespace SensorPipeline.CosmosEmulator.Tests;

/// <summary>Request charges, the RU budget's 429s, injected faults and TTL, against the real emulator process.</summary>
public sealed class BudgetFaultAndTtlTests(EmulatorFixture fixture) : IClassFixture<EmulatorFixture>
{
    [Fact]
    public async Task RequestCharge_WriteAndPointRead_WriteCostsMore()
    {
        var container = await fixture.NewContainerAsync();
        var write = await container.CreateItemAsync(new Item("a", "d", 1), new PartitionKey("d"));
        var read = await container.ReadItemAsync<Item>("a", new PartitionKey("d"));
        Assert.True(read.RequestCharge >= 1, $"read charged {read.RequestCharge}");
        Assert.True(write.RequestCharge > read.RequestCharge, $"write {write.RequestCharge} RU, read {read.RequestCharge} RU");
    }

    [Fact]
    public async Task Upsert_ExhaustedBudget_TooManyRequestsWithRetryAfter()
    {
        var container = await fixture.NewContainerAsync();
        using var admin = CosmosClients.EmulatorAdminClient(fixture.Emulator.Endpoint);
        using var budget = await admin.PutAsJsonAsync("_emulator/throughput", new { database = fixture.Database.Id, container = container.Id, requestUnitsPerSecond = 10 });
        Assert.Equal(HttpStatusCode.NoContent, budget.StatusCode);

        using var noRetry = fixture.Emulator.CreateClient(rateLimitRetries: 0);
        var target = noRetry.GetContainer(fixture.Database.Id, container.Id);
        string? throttled = null;
        for (var i = 0; i < 50 && throttled is null; i++)
        {
            using var response = await target.UpsertItemStreamAsync(new MemoryStream(System.Text.Encoding.UTF8.GetBytes($$"""{"id":"t{{i}}","deviceId":"d"}""")), new PartitionKey("d"),
                new ItemRequestOptions());
            if (response.StatusCode == HttpStatusCode.TooManyRequests)
            {
                throttled = response.Headers["x-ms-retry-after-ms"];
                Assert.True(int.TryParse(throttled, out var ms) && ms > 0, $"x-ms-retry-after-ms: '{throttled}'");
            }
        }

        Assert.NotNull(throttled);
    }

    [Fact]
    public async Task Upsert_InjectedWriteFault_RefusedWhileReadsAnswer()
    {
        var container = await fixture.NewContainerAsync();
        await container.CreateItemAsync(new Item("r", "d", 1), new PartitionKey("d"));
        await using (await fixture.SwitchOnAsync("_emulator/faults", new { status = 403, seconds = 60, writesOnly = true }))
        {
            var refused = await Assert.ThrowsAsync<CosmosException>(() => container.UpsertItemAsync(new Item("w", "d", 1), new PartitionKey("d")));
            Assert.Equal(HttpStatusCode.Forbidden, refused.StatusCode);
            var read = await container.ReadItemAsync<Item>("r", new PartitionKey("d"));
            Assert.Equal(HttpStatusCode.OK, read.StatusCode);
        }

        var accepted = await container.UpsertItemAsync(new Item("w", "d", 1), new PartitionKey("d"));
        Assert.Equal(HttpStatusCode.Created, accepted.StatusCode);
    }

    [Fact]
    public async Task Upsert_DiskFullSwitchSetThenCleared_RefusedLeavingNothingThenStored()
    {
        var container = await fixture.NewContainerAsync();
        await using (await fixture.SwitchOnAsync("_emulator/disk-full"))
        {
            var refused = await Assert.ThrowsAsync<CosmosException>(() => container.UpsertItemAsync(new Item("w", "d", 1), new PartitionKey("d")));
            Assert.Equal(HttpStatusCode.ServiceUnavailable, refused.StatusCode);
            using var read = await container.ReadItemStreamAsync("w", new PartitionKey("d"));
            Assert.Equal(HttpStatusCode.NotFound, read.StatusCode);
        }

        var accepted = await container.UpsertItemAsync(new Item("w", "d", 2), new PartitionKey("d"));
        Assert.Equal(HttpStatusCode.Created, accepted.StatusCode);
    }

    [Fact]
    public async Task Faults_RequestWithoutTheAdminHeader_Forbidden()
    {
        using var plain = new HttpClient(CosmosClients.LoopbackEmulatorHandler()) { BaseAddress = fixture.Emulator.Endpoint };
        using var response = await plain.PostAsJsonAsync("_emulator/faults", new { status = 503, seconds = 60 });
        Assert.Equal(HttpStatusCode.Forbidden, response.StatusCode);
    }

    [Fact]
    public async Task Read_DocumentPastItsTtl_NotFound()
    {
        var container = await fixture.NewContainerAsync(defaultTtl: 1);
        await container.CreateItemAsync(new { id = "short", deviceId = "d" }, new PartitionKey("d"));
        await container.CreateItemAsync(new { id = "forever", deviceId = "d", ttl = -1 }, new PartitionKey("d"));

        // Expiry is at whole seconds of _ts: poll until the document reads as missing (generous bound for a loaded machine).
        var status = await Eventually.ValueAsync(
            async () =>
            {
                using var response = await container.ReadItemStreamAsync("short", new PartitionKey("d"));
                return response.StatusCode;
            },
            status => status != HttpStatusCode.OK, "the expired document to read as missing", TimeSpan.FromSeconds(30), TimeSpan.FromMilliseconds(200));

        Assert.Equal(HttpStatusCode.NotFound, status);
        var kept = await container.ReadItemAsync<dynamic>("forever", new PartitionKey("d"));
        Assert.Equal(HttpStatusCode.OK, kept.StatusCode);
    }

    public sealed record Item(string id, string deviceId, int Seq);
}
