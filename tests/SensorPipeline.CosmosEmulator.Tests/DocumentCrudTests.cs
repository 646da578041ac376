using Microsoft.Azure.Cosmos;

namespace SensorPipeline.CosmosEmulator.Tests;

/// <summary>The official .NET SDK (Gateway mode) against the real emulator process: metadata, document CRUD, ETags.</summary>
public sealed class DocumentCrudTests(EmulatorFixture fixture) : IClassFixture<EmulatorFixture>, IAsyncLifetime
{
    private Container _container = null!;

    public async Task InitializeAsync() => _container = await fixture.NewContainerAsync();

    public Task DisposeAsync() => Task.CompletedTask;

    [Fact]
    public async Task Crud_EveryOperation_AnswersTheServiceStatusCodes()
    {
        var key = new PartitionKey("d1");
        var created = await _container.CreateItemAsync(new Item("a", "d1", 1), key);
        Assert.Equal(HttpStatusCode.Created, created.StatusCode);
        Assert.False(string.IsNullOrEmpty(created.ETag));

        var duplicate = await Assert.ThrowsAsync<CosmosException>(() => _container.CreateItemAsync(new Item("a", "d1", 2), key));
        Assert.Equal(HttpStatusCode.Conflict, duplicate.StatusCode);

        var read = await _container.ReadItemAsync<Item>("a", key);
        Assert.Equal(1, read.Resource.Seq);
        Assert.Equal(created.ETag, read.ETag);

        var missing = await Assert.ThrowsAsync<CosmosException>(() => _container.ReadItemAsync<Item>("nope", key));
        Assert.Equal(HttpStatusCode.NotFound, missing.StatusCode);
        var wrongPartition = await Assert.ThrowsAsync<CosmosException>(() => _container.ReadItemAsync<Item>("a", new PartitionKey("d2")));
        Assert.Equal(HttpStatusCode.NotFound, wrongPartition.StatusCode);

        var replaced = await _container.ReplaceItemAsync(new Item("a", "d1", 2), "a", key, new ItemRequestOptions { IfMatchEtag = read.ETag });
        Assert.Equal(HttpStatusCode.OK, replaced.StatusCode);
        Assert.NotEqual(read.ETag, replaced.ETag);
        var stale = await Assert.ThrowsAsync<CosmosException>(() => _container.ReplaceItemAsync(new Item("a", "d1", 3), "a", key, new ItemRequestOptions { IfMatchEtag = read.ETag }));
        Assert.Equal(HttpStatusCode.PreconditionFailed, stale.StatusCode);
        var replaceMissing = await Assert.ThrowsAsync<CosmosException>(() => _container.ReplaceItemAsync(new Item("zz", "d1", 3), "zz", key));
        Assert.Equal(HttpStatusCode.NotFound, replaceMissing.StatusCode);

        var upsertNew = await _container.UpsertItemAsync(new Item("b", "d1", 1), key);
        Assert.Equal(HttpStatusCode.Created, upsertNew.StatusCode);
        var upsertExisting = await _container.UpsertItemAsync(new Item("b", "d1", 5), key);
        Assert.Equal(HttpStatusCode.OK, upsertExisting.StatusCode);

        var deleted = await _container.DeleteItemAsync<Item>("a", key);
        Assert.Equal(HttpStatusCode.NoContent, deleted.StatusCode);
        var deletedAgain = await Assert.ThrowsAsync<CosmosException>(() => _container.DeleteItemAsync<Item>("a", key));
        Assert.Equal(HttpStatusCode.NotFound, deletedAgain.StatusCode);
    }

    [Fact]
    public async Task Read_CurrentETagAsIfNoneMatch_NotModified()
    {
        var key = new PartitionKey("d3");
        var created = await _container.CreateItemAsync(new Item("c", "d3", 1), key);
        using var response = await _container.ReadItemStreamAsync("c", key, new ItemRequestOptions { IfNoneMatchEtag = created.ETag });
        Assert.Equal(HttpStatusCode.NotModified, response.StatusCode);
    }

    [Fact]
    public async Task Read_WrongKey_Unauthorized()
    {
        using var client = fixture.Emulator.CreateClient(Convert.ToBase64String(new byte[64]));
        var error = await Assert.ThrowsAsync<CosmosException>(() => client.GetContainer(fixture.Database.Id, _container.Id).ReadItemAsync<Item>("a", new PartitionKey("d1")));
        Assert.Equal(HttpStatusCode.Unauthorized, error.StatusCode);
    }

    public sealed record Item(string id, string deviceId, int Seq);
}
