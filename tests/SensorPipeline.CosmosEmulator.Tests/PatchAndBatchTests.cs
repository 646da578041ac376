using Microsoft.Azure.Cosmos;

namespace SensorPipeline.CosmosEmulator.Tests;

/// <summary>Patch (with a filter predicate, as the device guard uses it), TransactionalBatch and bulk, through the
/// official .NET SDK against the real emulator process.</summary>
public sealed class PatchAndBatchTests(EmulatorFixture fixture) : IClassFixture<EmulatorFixture>
{
    [Fact]
    public async Task PatchItemAsync_TruePredicate_AppliesEachOperation()
    {
        var (container, key) = await DeviceAsync();

        var patched = await container.PatchItemAsync<Device>("dev-1", key,
            [PatchOperation.Set("/Version", "2026-01-01T00:00:09Z"), PatchOperation.Increment("/Count", 2), PatchOperation.Add("/Tags/-", "b")],
            new PatchItemRequestOptions { FilterPredicate = "FROM c WHERE c.Version < '2026-01-01T00:00:09Z'" });
        Assert.Equal(HttpStatusCode.OK, patched.StatusCode);
        Assert.Equal("2026-01-01T00:00:09Z", patched.Resource.Version);
        Assert.Equal(3, patched.Resource.Count);
        Assert.Equal(["a", "b"], patched.Resource.Tags ?? []);
    }

    [Fact]
    public async Task PatchItemAsync_FalsePredicate_PreconditionFailedNothingChanged()
    {
        var (container, key) = await DeviceAsync();

        // Older never overwrites newer: the predicate is false, nothing changes.
        var older = await Assert.ThrowsAsync<CosmosException>(() => container.PatchItemAsync<Device>("dev-1", key,
            [PatchOperation.Set("/Version", "2026-01-01T00:00:03Z")],
            new PatchItemRequestOptions { FilterPredicate = "FROM c WHERE c.Version < '2026-01-01T00:00:03Z'" }));
        Assert.Equal(HttpStatusCode.PreconditionFailed, older.StatusCode);
        var stored = await container.ReadItemAsync<Device>("dev-1", key);
        Assert.Equal("2026-01-01T00:00:05Z", stored.Resource.Version);
    }

    [Fact]
    public async Task PatchItemAsync_RemoveAndReplace_Applied()
    {
        var (container, key) = await DeviceAsync();

        await container.PatchItemAsync<Device>("dev-1", key, [PatchOperation.Remove("/Tags"), PatchOperation.Replace("/Count", 10)]);
        var final = await container.ReadItemAsync<Device>("dev-1", key);
        Assert.Null(final.Resource.Tags);
        Assert.Equal(10, final.Resource.Count);
    }

    [Fact]
    public async Task PatchItemAsync_MissingDocument_NotFound()
    {
        var (container, key) = await DeviceAsync();

        var missing = await Assert.ThrowsAsync<CosmosException>(() => container.PatchItemAsync<Device>("nope", key, [PatchOperation.Set("/Count", 1)]));
        Assert.Equal(HttpStatusCode.NotFound, missing.StatusCode);
    }

    // A fresh container holding device dev-1 at version ...:05Z, count 1, tags [a].
    private async Task<(Container Container, PartitionKey Key)> DeviceAsync()
    {
        var container = await fixture.NewContainerAsync();
        var key = new PartitionKey("dev-1");
        await container.CreateItemAsync(new Device("dev-1", "dev-1", "2026-01-01T00:00:05Z", 1, ["a"]), key);
        return (container, key);
    }

    [Fact]
    public async Task ExecuteAsync_TransactionalBatch_AppliesAllOrNothing()
    {
        var container = await fixture.NewContainerAsync();
        var key = new PartitionKey("dev-2");
        await container.CreateItemAsync(new Device("x", "dev-2", "v1", 1, null), key);

        using (var failed = await container.CreateTransactionalBatch(key)
            .CreateItem(new Device("y", "dev-2", "v1", 1, null))
            .CreateItem(new Device("x", "dev-2", "v1", 1, null))
            .ExecuteAsync())
        {
            Assert.False(failed.IsSuccessStatusCode);
            Assert.Equal(HttpStatusCode.Conflict, failed.StatusCode);
        }

        var notCreated = await Assert.ThrowsAsync<CosmosException>(() => container.ReadItemAsync<Device>("y", key));
        Assert.Equal(HttpStatusCode.NotFound, notCreated.StatusCode);

        using var succeeded = await container.CreateTransactionalBatch(key)
            .CreateItem(new Device("y", "dev-2", "v1", 1, null))
            .ReplaceItem("x", new Device("x", "dev-2", "v2", 2, null))
            .ReadItem("y")
            .DeleteItem("x")
            .ExecuteAsync();
        Assert.True(succeeded.IsSuccessStatusCode, succeeded.ErrorMessage);
        Assert.Equal(4, succeeded.Count);
        Assert.Equal(HttpStatusCode.Created, succeeded[0].StatusCode);
        Assert.Equal(HttpStatusCode.NoContent, succeeded[3].StatusCode);
        Assert.Equal("y", succeeded.GetOperationResultAtIndex<Device>(2).Resource.id);
        var deleted = await Assert.ThrowsAsync<CosmosException>(() => container.ReadItemAsync<Device>("x", key));
        Assert.Equal(HttpStatusCode.NotFound, deleted.StatusCode);
    }

    [Fact]
    public async Task UpsertItemAsync_BulkExecution_WritesEveryItem()
    {
        using var bulkClient = fixture.Emulator.CreateClient(bulk: true);
        var probe = await fixture.NewContainerAsync();
        var container = bulkClient.GetContainer(fixture.Database.Id, probe.Id);
        var writes = Enumerable.Range(0, 300).Select(i => container.UpsertItemAsync(new Device($"d{i}", $"dev-{i % 17}", "v1", i, null), new PartitionKey($"dev-{i % 17}")));
        var responses = await Task.WhenAll(writes);
        Assert.All(responses, r => Assert.Equal(HttpStatusCode.Created, r.StatusCode));

        var count = await probe.GetItemQueryIterator<int>("SELECT VALUE COUNT(1) FROM c").ReadNextAsync();
        Assert.Equal(300, count.Single());
    }

    public sealed record Device(string id, string deviceId, string Version, int Count, string[]? Tags);
}
