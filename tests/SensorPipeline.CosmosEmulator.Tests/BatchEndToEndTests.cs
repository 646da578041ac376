using System.Net.Http.Json;
using Microsoft.Azure.Cosmos;
using SensorPipeline.CosmosEmulator.Batch;

namespace SensorPipeline.CosmosEmulator.Tests;

/// <summary>The .NET SDK's TransactionalBatch and bulk execution against the real emulator process: the cases
/// <see cref="PatchAndBatchTests"/> leaves out (every operation kind, 424s, limits, conflicts, an RU budget).</summary>
public sealed class BatchEndToEndTests(EmulatorFixture fixture) : IClassFixture<EmulatorFixture>, IAsyncLifetime
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(120);
    private Container _container = null!;

    public async Task InitializeAsync() => _container = await fixture.NewContainerAsync();

    public Task DisposeAsync() => Task.CompletedTask;

    [Fact]
    public async Task ExecuteAsync_TransactionalBatchOfEveryKind_AppliesEachInOrder()
    {
        var key = new PartitionKey("d1");
        var existing = await _container.CreateItemAsync(new Item("old", "d1", 1), key);

        using var response = await _container.CreateTransactionalBatch(key)
            .CreateItem(new Item("a", "d1", 1))
            .UpsertItem(new Item("b", "d1", 2))
            .ReadItem("a")
            .ReplaceItem("old", new Item("old", "d1", 9), new TransactionalBatchItemRequestOptions { IfMatchEtag = existing.ETag })
            .PatchItem("b", [PatchOperation.Increment("/Seq", 5)], new TransactionalBatchPatchItemRequestOptions { FilterPredicate = "FROM c WHERE c.Seq = 2" })
            .DeleteItem("a")
            .ExecuteAsync().WaitAsync(Patience);

        Assert.True(response.IsSuccessStatusCode, response.ErrorMessage);
        Assert.Equal(
            [HttpStatusCode.Created, HttpStatusCode.Created, HttpStatusCode.OK, HttpStatusCode.OK, HttpStatusCode.OK, HttpStatusCode.NoContent],
            response.Select(r => r.StatusCode));
        Assert.Equal(1, response.GetOperationResultAtIndex<Item>(2).Resource.Seq);
        Assert.True(response.RequestCharge > 0);

        var b = await _container.ReadItemAsync<Item>("b", key);
        Assert.Equal(7, b.Resource.Seq);
        Assert.Equal(response[4].ETag, b.ETag);
        Assert.Equal(9, (await _container.ReadItemAsync<Item>("old", key)).Resource.Seq);
        await AssertMissingAsync("a", key);
    }

    [Fact]
    public async Task TransactionalBatch_OneFailure_AppliesNothingAndReportsFailedDependency()
    {
        var key = new PartitionKey("d2");
        await _container.CreateItemAsync(new Item("taken", "d2", 1), key);

        using var response = await _container.CreateTransactionalBatch(key)
            .CreateItem(new Item("first", "d2", 1))
            .CreateItem(new Item("taken", "d2", 2))
            .UpsertItem(new Item("third", "d2", 3))
            .ExecuteAsync().WaitAsync(Patience);

        Assert.Equal(HttpStatusCode.Conflict, response.StatusCode);
        Assert.Equal(
            [(HttpStatusCode)BatchOutcome.FailedDependency, HttpStatusCode.Conflict, (HttpStatusCode)BatchOutcome.FailedDependency],
            response.Select(r => r.StatusCode));
        await AssertMissingAsync("first", key);
        await AssertMissingAsync("third", key);
        Assert.Equal(1, (await _container.ReadItemAsync<Item>("taken", key)).Resource.Seq);

        // A read of a missing item fails the batch too.
        using var missingRead = await _container.CreateTransactionalBatch(key)
            .UpsertItem(new Item("fourth", "d2", 4))
            .ReadItem("nope")
            .ExecuteAsync().WaitAsync(Patience);
        Assert.Equal(HttpStatusCode.NotFound, missingRead.StatusCode);
        await AssertMissingAsync("fourth", key);
    }

    [Fact]
    public async Task TransactionalBatch_Committed_SurvivesKillMinus9()
    {
        // Its own process, so killing it leaves the shared one alone; the batch is one log record, replayed whole.
        var dataDirectory = EmulatorClients.NewDataDirectory();
        var key = new PartitionKey("d3");
        string[] etags;
        await using (var first = await CosmosEmulatorProcess.StartAsync(dataDirectory))
        {
            using var client = first.CreateClient();
            Database database = await client.CreateDatabaseIfNotExistsAsync("durable");
            Container container = await database.CreateContainerIfNotExistsAsync("items", "/deviceId");
            var batch = container.CreateTransactionalBatch(key);
            for (var i = 0; i < 50; i++)
            {
                batch.CreateItem(new Item($"k{i}", "d3", i));
            }

            using var response = await batch.ExecuteAsync().WaitAsync(Patience);
            Assert.True(response.IsSuccessStatusCode, response.ErrorMessage);
            etags = [.. response.Select(r => r.ETag)];
            await first.Process.KillAsync();
        }

        await using var second = await CosmosEmulatorProcess.StartAsync(dataDirectory);
        using var reader = second.CreateClient();
        var restarted = reader.GetContainer("durable", "items");
        for (var i = 0; i < 50; i++)
        {
            var read = await restarted.ReadItemAsync<Item>($"k{i}", key);
            Assert.Equal(i, read.Resource.Seq);
            Assert.Equal(etags[i], read.ETag);
        }
    }

    [Fact]
    public async Task TransactionalBatch_MoreThanOneHundredOperations_IsBadRequest()
    {
        var key = new PartitionKey("d4");
        var batch = _container.CreateTransactionalBatch(key);
        for (var i = 0; i <= BatchLimits.MaxOperations; i++)
        {
            batch.UpsertItem(new Item($"n{i}", "d4", i));
        }

        using var response = await batch.ExecuteAsync().WaitAsync(Patience);

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        await AssertMissingAsync("n0", key);
    }

    [Fact]
    public async Task Bulk_ManyItemsAcrossPartitions_AllWrittenAndReadable()
    {
        using var bulkClient = fixture.Emulator.CreateClient(bulk: true);
        var bulk = bulkClient.GetContainer(fixture.Database.Id, _container.Id);

        var written = await Task.WhenAll(Enumerable.Range(0, 300).Select(i =>
            bulk.UpsertItemAsync(new Item($"bulk{i}", $"dev{i % 20}", i), new PartitionKey($"dev{i % 20}")))).WaitAsync(Patience);

        Assert.All(written, r => Assert.Equal(HttpStatusCode.Created, r.StatusCode));
        Assert.All(written, r => Assert.True(r.RequestCharge > 0));
        var read = await Task.WhenAll(Enumerable.Range(0, 300).Select(i =>
            bulk.ReadItemAsync<Item>($"bulk{i}", new PartitionKey($"dev{i % 20}")))).WaitAsync(Patience);
        Assert.Equal(Enumerable.Range(0, 300), read.Select(r => r.Resource.Seq));
        Assert.Equal(written.Select(w => w.ETag), read.Select(r => r.ETag));

        var conflict = await Assert.ThrowsAsync<CosmosException>(() =>
            bulk.CreateItemAsync(new Item("bulk0", "dev0", -1), new PartitionKey("dev0")).WaitAsync(Patience));
        Assert.Equal(HttpStatusCode.Conflict, conflict.StatusCode);
    }

    [Fact]
    public async Task Bulk_OverTheRequestUnitBudget_IsThrottledAndTheSdkRetriesUntilAllAreWritten()
    {
        // Against 40 RU/s, a first wave of 40 writes (about 5 RU each) takes the budget about four seconds into debt,
        // so the second wave's bulk requests are answered 429 with the time to wait, and the SDK sends them again.
        var sent = new BatchCounter();
        using (var admin = CosmosClients.EmulatorAdminClient(fixture.Emulator.Endpoint))
        {
            using var set = await admin.PutAsJsonAsync("_emulator/throughput", new { database = fixture.Database.Id, container = _container.Id, requestUnitsPerSecond = 40 });
            Assert.Equal(HttpStatusCode.NoContent, set.StatusCode);
        }

        using var client = CosmosClients.Create(fixture.Emulator.Endpoint, new CosmosClientOptions
        {
            AllowBulkExecution = true,
            HttpClientFactory = () => new HttpClient(new CountingHandler(sent, CosmosClients.LoopbackEmulatorHandler())),
        });
        var container = client.GetContainer(fixture.Database.Id, _container.Id);

        var written = new List<ItemResponse<Item>>();
        foreach (var wave in new[] { 0, 1 })
        {
            written.AddRange(await Task.WhenAll(Enumerable.Range(wave * 40, 40).Select(i =>
                container.CreateItemAsync(new Item($"t{i}", $"dev{i % 10}", i), new PartitionKey($"dev{i % 10}")))).WaitAsync(Patience));
        }

        Assert.Equal(80, written.Count);
        Assert.All(written, r => Assert.Equal(HttpStatusCode.Created, r.StatusCode));
        Assert.True(sent.Operations > 80, $"expected throttled operations to be sent again, {sent.Operations} operations were sent");
    }

    private async Task AssertMissingAsync(string id, PartitionKey key)
    {
        var e = await Assert.ThrowsAsync<CosmosException>(() => _container.ReadItemAsync<Item>(id, key));
        Assert.Equal(HttpStatusCode.NotFound, e.StatusCode);
    }

    /// <summary>Counts the operations of every batch request a client sends (a retried operation counts again).</summary>
    private sealed class BatchCounter
    {
        private int _operations;

        public int Operations => Volatile.Read(ref _operations);

        public void Add(int count) => Interlocked.Add(ref _operations, count);
    }

    private sealed class CountingHandler(BatchCounter counter, HttpMessageHandler inner) : DelegatingHandler(inner)
    {

        protected override async Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
        {
            if (request.Headers.Contains("x-ms-cosmos-is-batch-request") && request.Content is not null)
            {
                counter.Add(BatchRequestReader.Read(await request.Content.ReadAsByteArrayAsync(cancellationToken)).Count);
            }

            return await base.SendAsync(request, cancellationToken);
        }
    }

    /// <summary>A document as the SDK serializes it (Newtonsoft: property names as declared).</summary>
    private sealed record Item(string id, string deviceId, int Seq);
}
