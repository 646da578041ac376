using Microsoft.Azure.Cosmos;

namespace SensorPipeline.CosmosEmulator.Tests;

/// <summary>Queries through the official .NET SDK (query plan from the emulator, Gateway mode): within one partition,
/// across partitions with ORDER BY / TOP / COUNT, paging, and spatial.</summary>
public sealed class QueryTests(EmulatorFixture fixture) : IClassFixture<EmulatorFixture>
{
    [Fact]
    public async Task Query_CrossPartitionOrderByTopCountAndPaging_AnswerAsTheServiceDoes()
    {
        var container = await fixture.NewContainerAsync();
        for (var i = 0; i < 60; i++)
        {
            await container.CreateItemAsync(new Reading($"r{i}", $"dev-{i % 6}", i, null), new PartitionKey($"dev-{i % 6}"));
        }

        var ordered = await ReadAllAsync(container.GetItemQueryIterator<Reading>("SELECT * FROM c WHERE c.Seq >= 10 ORDER BY c.Seq DESC",
            requestOptions: new QueryRequestOptions { MaxItemCount = 7 }));
        Assert.Equal(Enumerable.Range(10, 50).Reverse(), ordered.Select(r => r.Seq));

        var top = await ReadAllAsync(container.GetItemQueryIterator<Reading>("SELECT TOP 3 * FROM c ORDER BY c.Seq"));
        Assert.Equal([0, 1, 2], top.Select(r => r.Seq));

        var count = await ReadAllAsync(container.GetItemQueryIterator<int>(new QueryDefinition("SELECT VALUE COUNT(1) FROM c WHERE c.Seq < @limit").WithParameter("@limit", 20)));
        Assert.Equal(20, count.Single());

        var onePartition = await ReadAllAsync(container.GetItemQueryIterator<Reading>("SELECT * FROM c",
            requestOptions: new QueryRequestOptions { PartitionKey = new PartitionKey("dev-2"), MaxItemCount = 3 }));
        Assert.Equal(10, onePartition.Count);
        Assert.All(onePartition, r => Assert.Equal("dev-2", r.deviceId));
    }

    [Fact]
    public async Task Query_SpatialDistanceAndWithin_FindThePointsNearby()
    {
        var container = await fixture.NewContainerAsync();
        await container.CreateItemAsync(new Reading("near", "dev-a", 1, Point.At(13.40, 52.52)), new PartitionKey("dev-a"));
        await container.CreateItemAsync(new Reading("far", "dev-b", 2, Point.At(2.35, 48.86)), new PartitionKey("dev-b"));

        var near = await ReadAllAsync(container.GetItemQueryIterator<Reading>(
            new QueryDefinition("SELECT * FROM c WHERE ST_DISTANCE(c.location, {'type': 'Point', 'coordinates': [13.41, 52.52]}) < @meters").WithParameter("@meters", 5000)));
        Assert.Equal(["near"], near.Select(r => r.id));

        var within = await ReadAllAsync(container.GetItemQueryIterator<Reading>(
            "SELECT * FROM c WHERE ST_WITHIN(c.location, {'type': 'Polygon', 'coordinates': [[[0, 40], [10, 40], [10, 55], [0, 55], [0, 40]]]})"));
        Assert.Equal(["far"], within.Select(r => r.id));
    }

    [Fact]
    public async Task Query_Unsupported_BadRequest()
    {
        var container = await fixture.NewContainerAsync();
        var error = await Assert.ThrowsAsync<CosmosException>(() => ReadAllAsync(container.GetItemQueryIterator<Reading>("SELEKT * FROM c")));
        Assert.Equal(System.Net.HttpStatusCode.BadRequest, error.StatusCode);
    }

    private static async Task<List<T>> ReadAllAsync<T>(FeedIterator<T> iterator)
    {
        var items = new List<T>();
        using (iterator)
        {
            while (iterator.HasMoreResults)
            {
                items.AddRange(await iterator.ReadNextAsync());
            }
        }

        return items;
    }

    public sealed record Point(string type, double[] coordinates)
    {
        public static Point At(double longitude, double latitude) => new("Point", [longitude, latitude]);
    }

    public sealed record Reading(string id, string deviceId, int Seq, Point? location);
}
