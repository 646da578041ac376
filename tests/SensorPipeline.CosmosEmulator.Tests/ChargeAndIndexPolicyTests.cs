using System.Text.Json;
using Microsoft.Azure.Cosmos;
using SensorPipeline.CosmosEmulator.Charging;
using SensorPipeline.CosmosEmulator.Queries;
using IndexingPolicy = SensorPipeline.CosmosEmulator.Charging.IndexingPolicy;

namespace SensorPipeline.CosmosEmulator.Tests;

/// <summary>The charges the SDK sees from the real process match the cost model for the stored documents, the ledger
/// totals them (TTL expiry included), and the indexing policy decides what ORDER BY and filters may use.</summary>
public sealed class ChargeAndIndexPolicyTests(EmulatorFixture fixture) : IClassFixture<EmulatorFixture>
{
    [Fact]
    public async Task WritesAndRefusals_ChargedByTheModel_AndTotalledInTheLedger()
    {
        var container = await fixture.NewContainerAsync();
        var policy = await PolicyAsync(container);
        var key = new PartitionKey("d");

        using var created = await container.CreateItemStreamAsync(Json("""{"id":"a","deviceId":"d","n":1,"s":"x","location":{"type":"Point","coordinates":[13.4,52.5]}}"""), key);
        var first = await BodyAsync(created);
        Assert.Equal(RequestCharge.Create(first.Length, IndexTerms.Count(first, policy)), created.Headers.RequestCharge);

        using var replaced = await container.UpsertItemStreamAsync(Json("""{"id":"a","deviceId":"d","n":2,"s":"y","location":{"type":"Point","coordinates":[13.4,52.5]}}"""), key);
        var second = await BodyAsync(replaced);
        Assert.Equal(RequestCharge.Replace(first.Length, second.Length, IndexTerms.Compare(first, second, policy)), replaced.Headers.RequestCharge);

        using var patched = await container.PatchItemStreamAsync("a", key, [PatchOperation.Set("/n", 3)]);
        var third = await BodyAsync(patched);
        Assert.Equal(RequestCharge.Patch(second.Length, third.Length, IndexTerms.Compare(second, third, policy)), patched.Headers.RequestCharge);

        using var refused = await container.PatchItemStreamAsync("a", key, [PatchOperation.Set("/n", 4)],
            new PatchItemRequestOptions { FilterPredicate = "FROM c WHERE c.n > 100" });
        Assert.Equal(HttpStatusCode.PreconditionFailed, refused.StatusCode);
        Assert.Equal(RequestCharge.PointRead(third.Length), refused.Headers.RequestCharge);

        using var deleted = await container.DeleteItemStreamAsync("a", key);
        Assert.Equal(RequestCharge.Delete(third.Length, IndexTerms.Count(third, policy)), deleted.Headers.RequestCharge);

        var ledger = await LedgerAsync(container.Id);
        foreach (var (operation, response) in new[] { ("create", created), ("replace", replaced), ("patch", patched), ("refused", refused), ("delete", deleted) })
        {
            Assert.Equal(1, ledger.GetProperty(operation).GetProperty("count").GetInt64());
            Assert.Equal(response.Headers.RequestCharge, ledger.GetProperty(operation).GetProperty("requestUnits").GetDouble());
        }
    }

    [Fact]
    public async Task Expiry_DocumentPastItsTtl_ChargedAsADeleteFromTheContainer()
    {
        var container = await fixture.NewContainerAsync(defaultTtl: 1);
        using var created = await container.CreateItemStreamAsync(Json("""{"id":"short","deviceId":"d","n":1}"""), new PartitionKey("d"));
        var body = await BodyAsync(created);

        // The purge runs every Cosmos:TimeToLivePurgeInterval (5 s by default): poll the ledger until it charged the expiry.
        var ledger = await Eventually.ValueAsync(() => LedgerAsync(container.Id), charged => charged.TryGetProperty("expiry", out _), "the expiry charged in the ledger",
            TimeSpan.FromSeconds(30), TimeSpan.FromMilliseconds(200));
        var expiry = ledger.GetProperty("expiry");
        Assert.Equal(JsonValueKind.Object, expiry.ValueKind);
        Assert.Equal(1, expiry.GetProperty("count").GetInt64());
        Assert.Equal(RequestCharge.Delete(body.Length, IndexTerms.Count(body, IndexingPolicy.Default)), expiry.GetProperty("requestUnits").GetDouble());
    }

    [Fact]
    public async Task OrderBy_OnAnExcludedPathOrWithoutACompositeIndex_IsTheServices400()
    {
        var properties = new ContainerProperties(Guid.NewGuid().ToString("N"), "/deviceId");
        properties.IndexingPolicy.ExcludedPaths.Add(new ExcludedPath { Path = "/secret/?" });
        properties.IndexingPolicy.CompositeIndexes.Add([new CompositePath { Path = "/n" }, new CompositePath { Path = "/m", Order = CompositePathSortOrder.Descending }]);
        Container container = await fixture.Database.CreateContainerAsync(properties);
        await container.CreateItemAsync(new { id = "a", deviceId = "d", n = 1, m = 1, secret = "s" }, new PartitionKey("d"));
        var inPartition = new QueryRequestOptions { PartitionKey = new PartitionKey("d") };

        var excluded = await Assert.ThrowsAsync<CosmosException>(() => CountAsync(container, "SELECT * FROM c ORDER BY c.secret", inPartition));
        Assert.Equal(HttpStatusCode.BadRequest, excluded.StatusCode);
        Assert.Contains(IndexUse.OrderByExcluded, excluded.Message, StringComparison.Ordinal);
        var noComposite = await Assert.ThrowsAsync<CosmosException>(() => CountAsync(container, "SELECT * FROM c ORDER BY c.n, c.m", inPartition));
        Assert.Contains(IndexUse.NoCompositeIndex, noComposite.Message, StringComparison.Ordinal);

        Assert.Equal(1, await CountAsync(container, "SELECT * FROM c ORDER BY c.n", inPartition));
        Assert.Equal(1, await CountAsync(container, "SELECT * FROM c ORDER BY c.n DESC, c.m ASC", inPartition));
        Assert.Equal(1, await CountAsync(container, "SELECT * FROM c ORDER BY c._ts", inPartition));
    }

    [Fact]
    public async Task Filter_OnAnUnindexedPath_IsChargedAsAScanOfEveryItemInScope()
    {
        var properties = new ContainerProperties(Guid.NewGuid().ToString("N"), "/deviceId");
        properties.IndexingPolicy.ExcludedPaths.Add(new ExcludedPath { Path = "/secret/?" });
        Container container = await fixture.Database.CreateContainerAsync(properties);
        for (var i = 0; i < 10; i++)
        {
            await container.CreateItemAsync(new { id = $"i{i}", deviceId = "d", n = i, secret = $"s{i}" }, new PartitionKey("d"));
        }

        var inPartition = new QueryRequestOptions { PartitionKey = new PartitionKey("d") };
        Assert.Equal(RequestCharge.QueryBase + 1, await ChargeAsync(container, "SELECT * FROM c WHERE c.n = 3", inPartition));
        Assert.Equal(RequestCharge.QueryBase + 10, await ChargeAsync(container, "SELECT * FROM c WHERE c.secret = 's3'", inPartition));
        Assert.Equal(RequestCharge.QueryBase + 10, await ChargeAsync(container, "SELECT * FROM c WHERE UPPER(c.deviceId) = 'D'", inPartition));
    }

    private async Task<JsonElement> LedgerAsync(string containerId)
    {
        using var admin = CosmosClients.EmulatorAdminClient(fixture.Emulator.Endpoint);
        using var charges = JsonDocument.Parse(await admin.GetStringAsync("_emulator/charges"));
        return charges.RootElement.GetProperty("containers").EnumerateArray()
            .Single(c => c.GetProperty("container").GetString() == containerId).GetProperty("operations").Clone();
    }

    private static async Task<IndexingPolicy> PolicyAsync(Container container)
    {
        using var response = await container.ReadContainerStreamAsync();
        using var resource = await JsonDocument.ParseAsync(response.Content);
        return IndexingPolicy.From(resource.RootElement);
    }

    private static async Task<int> CountAsync(Container container, string sql, QueryRequestOptions options)
    {
        var count = 0;
        using var iterator = container.GetItemQueryStreamIterator(sql, requestOptions: options);
        while (iterator.HasMoreResults)
        {
            using var page = await iterator.ReadNextAsync();
            if (!page.IsSuccessStatusCode)
            {
                throw new CosmosException(page.ErrorMessage, page.StatusCode, 0, page.Headers.ActivityId, 0);
            }

            using var json = await JsonDocument.ParseAsync(page.Content);
            count += json.RootElement.GetProperty("_count").GetInt32();
        }

        return count;
    }

    private static async Task<double> ChargeAsync(Container container, string sql, QueryRequestOptions options)
    {
        var charge = 0.0;
        using var iterator = container.GetItemQueryStreamIterator(sql, requestOptions: options);
        while (iterator.HasMoreResults)
        {
            using var page = await iterator.ReadNextAsync();
            Assert.True(page.IsSuccessStatusCode, page.ErrorMessage);
            charge += page.Headers.RequestCharge;
        }

        return Math.Round(charge, 2);
    }

    private static async Task<byte[]> BodyAsync(ResponseMessage response)
    {
        Assert.True(response.IsSuccessStatusCode, response.ErrorMessage);
        using var buffer = new MemoryStream();
        await response.Content.CopyToAsync(buffer);
        return buffer.ToArray();
    }

    private static MemoryStream Json(string json) => new(Encoding.UTF8.GetBytes(json));
}
