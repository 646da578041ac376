using System.Text.Json;
using Microsoft.Azure.Cosmos;
using SensorPipeline.Clients;

namespace SensorPipeline.Functions.Tests.Infrastructure;

/// <summary>Reads what the handler wrote, by point reads, with the one client set-up (<see cref="CosmosClients"/>).</summary>
internal sealed class StoreReader : IDisposable
{
    private readonly CosmosClient _client;
    private readonly string _database;

    public StoreReader(CosmosEmulatorProcess standIn, string database)
    {
        _database = database;
        _client = CosmosClients.Create(standIn.Endpoint);
    }

    /// <summary>Awaited before <c>devices</c> or dead letters are read: the handler's signal that the device states of
    /// everything it stored so far are durable (they are written within W, after the invocation answered).</summary>
    public Func<Task>? DeviceStatesDurable { get; set; }

    /// <summary>The document, or null when it does not exist.</summary>
    public async Task<JsonElement?> ReadAsync(string container, string id, string partitionKey)
    {
        await SettleAsync(container);
        using var response = await _client.GetContainer(_database, container).ReadItemStreamAsync(id, new PartitionKey(partitionKey));
        if (response.StatusCode == HttpStatusCode.NotFound)
        {
            return null;
        }

        response.EnsureSuccessStatusCode();
        using var document = await JsonDocument.ParseAsync(response.Content);
        return document.RootElement.Clone();
    }

    /// <summary>Stores a document as is (to set up a state the handler itself would never write).</summary>
    public async Task UpsertAsync(string container, string partitionKey, string json)
    {
        using var stream = new MemoryStream(System.Text.Encoding.UTF8.GetBytes(json));
        using var response = await _client.GetContainer(_database, container).UpsertItemStreamAsync(stream, new PartitionKey(partitionKey));
        response.EnsureSuccessStatusCode();
    }

    /// <summary>Deletes a document (to set up what a process killed between two writes leaves behind).</summary>
    public async Task DeleteAsync(string container, string id, string partitionKey)
    {
        using var response = await _client.GetContainer(_database, container).DeleteItemStreamAsync(id, new PartitionKey(partitionKey));
        response.EnsureSuccessStatusCode();
    }

    /// <summary>Ids of every document in one partition (a single-partition query: cheap on a small container).</summary>
    public async Task<List<string>> IdsAsync(string container, string deviceId)
    {
        await SettleAsync(container);
        var query = new QueryDefinition("SELECT c.id FROM c WHERE c.deviceId = @d").WithParameter("@d", deviceId);
        var ids = new List<string>();
        using var iterator = _client.GetContainer(_database, container).GetItemQueryIterator<IdOnly>(query, requestOptions: new QueryRequestOptions { PartitionKey = new PartitionKey(deviceId) });
        while (iterator.HasMoreResults)
        {
            foreach (var item in await iterator.ReadNextAsync())
            {
                ids.Add(item.Id);
            }
        }

        return ids;
    }

    /// <summary>Ids of the dead letters of one device (<c>deadletters</c> is partitioned by id: a cross-partition query).</summary>
    public async Task<List<string>> DeadLetterIdsAsync(string deviceId)
    {
        await SettleAsync("deadletters");
        var query = new QueryDefinition("SELECT c.id FROM c WHERE c.deviceId = @d").WithParameter("@d", deviceId);
        var ids = new List<string>();
        using var iterator = _client.GetContainer(_database, "deadletters").GetItemQueryIterator<IdOnly>(query);
        while (iterator.HasMoreResults)
        {
            foreach (var item in await iterator.ReadNextAsync())
            {
                ids.Add(item.Id);
            }
        }

        return ids;
    }

    /// <summary>The container's indexing policy as the store holds it (its resource's <c>indexingPolicy</c>).</summary>
    public async Task<JsonElement> IndexingPolicyAsync(string container)
    {
        using var response = await _client.GetContainer(_database, container).ReadContainerStreamAsync();
        response.EnsureSuccessStatusCode();
        using var document = await JsonDocument.ParseAsync(response.Content);
        return document.RootElement.GetProperty("indexingPolicy").Clone();
    }

    public void Dispose() => _client.Dispose();

    private Task SettleAsync(string container) =>
        DeviceStatesDurable is { } settle && container is "devices" or "deadletters" ? settle() : Task.CompletedTask;

    private sealed record IdOnly([property: Newtonsoft.Json.JsonProperty("id")] string Id);
}
