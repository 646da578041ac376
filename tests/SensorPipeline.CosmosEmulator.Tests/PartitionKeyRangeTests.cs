using System.Text.Json;
using Microsoft.Azure.Cosmos;

namespace SensorPipeline.CosmosEmulator.Tests;

/// <summary>An emulator serving every container as four partition key ranges (<c>Cosmos:PartitionKeyRanges=4</c>),
/// driven by the .NET SDK: it reads the ranges, places keys by its own hash, sends bulk one request per range (the
/// emulator refuses an operation whose key is not in the addressed range) and fans queries out per range.</summary>
public sealed class PartitionKeyRangeTests : IAsyncLifetime
{
    private const int Devices = 64;
    private const int PerDevice = 3;
    private CosmosEmulatorProcess _emulator = null!;
    private CosmosClient _bulk = null!;
    private Container _container = null!;

    public async Task InitializeAsync()
    {
        _emulator = await CosmosEmulatorProcess.StartAsync(EmulatorClients.NewDataDirectory(), temporary: true, settings: ["Cosmos:PartitionKeyRanges=4"]);
        _bulk = _emulator.CreateClient(bulk: true);
        var database = (await _bulk.CreateDatabaseIfNotExistsAsync("ranges")).Database;
        _container = (await database.CreateContainerIfNotExistsAsync(new ContainerProperties("items", "/deviceId") { PartitionKeyDefinitionVersion = PartitionKeyDefinitionVersion.V2 })).Container;
        var writes = Enumerable.Range(0, Devices * PerDevice).Select(i => _container.UpsertItemStreamAsync(
            Json(new { id = $"r{i}", deviceId = $"dev-{i % Devices:0000}", n = i }), new PartitionKey($"dev-{i % Devices:0000}")));
        var responses = await Task.WhenAll(writes);
        Assert.All(responses, r => Assert.True(r.IsSuccessStatusCode, $"{r.StatusCode}: {r.ErrorMessage}"));
        foreach (var response in responses)
        {
            response.Dispose();
        }
    }

    [Fact]
    public async Task BulkUpserts_LandInTheRangesTheSdkHashedThemTo_AndEachRangeHoldsADisjointShare()
    {
        var ranges = await _container.GetFeedRangesAsync();
        Assert.Equal(4, ranges.Count);
        var seen = new List<string>();
        foreach (var range in ranges)
        {
            var ids = await IdsAsync(_container.GetItemQueryIterator<Doc>(range, new QueryDefinition("SELECT c.id FROM c")));
            Assert.NotEmpty(ids);
            seen.AddRange(ids);
        }

        Assert.Equal(Devices * PerDevice, seen.Count);
        Assert.Equal(Devices * PerDevice, seen.Distinct().Count());
    }

    [Fact]
    public async Task Charges_BulkUpserts_CountedAsRequestsPerRangeWithTheirOperations()
    {
        // The SDK's bulk mode sends one request per range per flush: the 192 upserts arrive in at least 4 requests, each
        // carrying only its own range's operations, and the ledger counts both (what `bench cost` reports).
        using var admin = new HttpClient(SensorPipeline.Clients.CosmosClients.LoopbackEmulatorHandler()) { BaseAddress = _emulator.Endpoint };
        admin.DefaultRequestHeaders.Add("x-emulator-admin", "1");
        using var charges = JsonDocument.Parse(await admin.GetStringAsync("_emulator/charges"));
        var items = charges.RootElement.GetProperty("containers").EnumerateArray().Single(c => c.GetProperty("container").GetString() == "items");
        Assert.Equal(4, items.GetProperty("partitionKeyRanges").GetInt32());
        var bulk = items.GetProperty("bulk");
        Assert.Equal(Devices * PerDevice, bulk.GetProperty("operations").GetInt64());
        Assert.InRange(bulk.GetProperty("requests").GetInt64(), 4, Devices * PerDevice);
    }

    [Fact]
    public async Task CrossPartitionQueryAndReadMany_FanOutOverTheRanges_AndFindEveryItemOnce()
    {
        var all = await IdsAsync(_container.GetItemQueryIterator<Doc>(new QueryDefinition("SELECT c.id FROM c WHERE c.n >= @min").WithParameter("@min", 0)));
        Assert.Equal(Devices * PerDevice, all.Count);
        Assert.Equal(Devices * PerDevice, all.Distinct().Count());

        var one = await IdsAsync(_container.GetItemQueryIterator<Doc>(new QueryDefinition("SELECT c.id FROM c"),
            requestOptions: new QueryRequestOptions { PartitionKey = new PartitionKey("dev-0007") }));
        Assert.Equal(["r135", "r7", "r71"], one.Order(StringComparer.Ordinal));

        var wanted = Enumerable.Range(0, 40).Select(i => ($"r{i * 4}", new PartitionKey($"dev-{i * 4 % Devices:0000}"))).ToList();
        var many = await _container.ReadManyItemsAsync<Doc>(wanted);
        Assert.Equal(wanted.Select(w => w.Item1).Order(StringComparer.Ordinal), many.Select(d => d.id).Order(StringComparer.Ordinal));
    }

    [Fact]
    public async Task Query_CrossPartitionOrderByAndTop_MergedByTheSdkAsThePlanSays()
    {
        var all = Enumerable.Range(0, Devices * PerDevice).Select(i => $"r{i}").ToList();
        var descending = await IdsAsync(_container.GetItemQueryIterator<Doc>(new QueryDefinition("SELECT c.id FROM c ORDER BY c.n DESC"),
            requestOptions: new QueryRequestOptions { MaxItemCount = 50 }));
        Assert.Equal(Enumerable.Reverse(all), descending);

        var top = await IdsAsync(_container.GetItemQueryIterator<Doc>(new QueryDefinition("SELECT TOP @k * FROM c WHERE c.n >= 10 ORDER BY c.n").WithParameter("@k", 5)));
        Assert.Equal(["r10", "r11", "r12", "r13", "r14"], top);

        var anyThree = await IdsAsync(_container.GetItemQueryIterator<Doc>(new QueryDefinition("SELECT TOP 3 c.id FROM c")));
        Assert.Equal(3, anyThree.Distinct().Count());

        var ordered = await IdsAsync(_container.GetItemQueryIterator<Doc>(new QueryDefinition("SELECT c.id FROM c ORDER BY c.n DESC"),
            requestOptions: new QueryRequestOptions { PartitionKey = new PartitionKey("dev-0007") }));
        Assert.Equal(["r135", "r71", "r7"], ordered);
    }

    [Fact]
    public async Task ReadMany_AbsentDuplicateAndWrongKeyPairs_ReturnsEachStoredPairOnce()
    {
        // Existing pairs over many devices (so every range), each asked twice; ids never written; stored ids under
        // another device's key. ReadMany's per-range queries are answered from the id lookup.
        var stored = Enumerable.Range(0, 60).Select(i => i * 3).Select(i => ($"r{i}", new PartitionKey($"dev-{i % Devices:0000}"))).ToList();
        var absent = Enumerable.Range(0, 20).Select(i => ($"r{Devices * PerDevice + i}", new PartitionKey($"dev-{i:0000}")));
        var wrongKey = Enumerable.Range(0, 20).Select(i => ($"r{i}", new PartitionKey($"dev-{(i + 1) % Devices:0000}")));
        List<(string, PartitionKey)> asked = [.. stored, .. absent, .. wrongKey, .. stored.Take(10)];

        var many = await _container.ReadManyItemsAsync<Doc>(asked);

        Assert.Equal(HttpStatusCode.OK, many.StatusCode);
        Assert.Equal(stored.Select(s => s.Item1).Order(StringComparer.Ordinal), many.Select(d => d.id).Order(StringComparer.Ordinal));
        Assert.True(many.RequestCharge > 0);
    }

    [Fact]
    public async Task Query_CrossPartitionAggregate_RefusedWithAClearMessage()
    {
        var refused = await Assert.ThrowsAsync<CosmosException>(() =>
            IdsAsync(_container.GetItemQueryIterator<Doc>(new QueryDefinition("SELECT VALUE COUNT(1) FROM c"))));
        Assert.Equal(HttpStatusCode.BadRequest, refused.StatusCode);
        Assert.Contains("PartitionKeyRanges", refused.Message, StringComparison.Ordinal);
    }

    public async Task DisposeAsync()
    {
        _bulk.Dispose();
        await _emulator.DisposeAsync();
    }

    private static async Task<List<string>> IdsAsync(FeedIterator<Doc> iterator)
    {
        var ids = new List<string>();
        using (iterator)
        {
            while (iterator.HasMoreResults)
            {
                foreach (var item in await iterator.ReadNextAsync())
                {
                    ids.Add(item.id);
                }
            }
        }

        return ids;
    }

    public sealed record Doc(string id);

    private static MemoryStream Json(object value) => new(Encoding.UTF8.GetBytes(JsonSerializer.Serialize(value)));
}
