using Microsoft.Azure.Cosmos;

namespace SensorPipeline.CosmosEmulator.Tests;

/// <summary>A query or a Patch filter predicate nested deeper than the engine's limit, sent through the official SDK to
/// the real emulator process: a 400 that says why, and the emulator goes on answering (a stack overflow would end it).
/// Its own emulator, so a crash here cannot take other tests' emulator down.</summary>
public sealed class DeepQueryTests(EmulatorFixture fixture) : IClassFixture<EmulatorFixture>
{
    private static readonly string Deep = new string('(', 6000) + "c.n = 1" + new string(')', 6000);

    [Fact]
    public async Task DeepQueryAndPatchCondition_Get400WithTheReason_AndTheEmulatorKeepsAnswering()
    {
        var container = await fixture.NewContainerAsync();
        await container.CreateItemAsync(new { id = "d1", deviceId = "dev-1", n = 1 }, new PartitionKey("dev-1"));

        var query = await Assert.ThrowsAsync<CosmosException>(async () =>
        {
            using var iterator = container.GetItemQueryIterator<dynamic>("SELECT * FROM c WHERE " + Deep);
            await iterator.ReadNextAsync();
        });
        Assert.Equal(HttpStatusCode.BadRequest, query.StatusCode);
        Assert.Contains("deep", query.ResponseBody ?? query.Message, StringComparison.Ordinal);

        var patch = await Assert.ThrowsAsync<CosmosException>(() => container.PatchItemAsync<dynamic>("d1", new PartitionKey("dev-1"),
            [PatchOperation.Set("/n", 2)], new PatchItemRequestOptions { FilterPredicate = "FROM c WHERE " + Deep }));
        Assert.Equal(HttpStatusCode.BadRequest, patch.StatusCode);
        Assert.Contains("deep", patch.ResponseBody ?? patch.Message, StringComparison.Ordinal);

        var read = await container.ReadItemAsync<dynamic>("d1", new PartitionKey("dev-1"));
        Assert.Equal(HttpStatusCode.OK, read.StatusCode);
    }
}
