using System.Globalization;
using Microsoft.Azure.Cosmos;
using static SensorPipeline.CosmosEmulator.Tests.QueryTests;

namespace SensorPipeline.CosmosEmulator.Tests;

/// <summary>
/// The container's indexing policy decides how a spatial query runs: with a spatial index on the path it reads only the
/// documents in the query's box, without one it scans every document (charged per document, as the service charges a
/// full scan). Either way the answer is the same — checked on random points, random circles and polygons, before and
/// after documents move and go.
/// </summary>
public sealed class SpatialIndexTests(EmulatorFixture fixture) : IClassFixture<EmulatorFixture>
{
    private const int Documents = 600;

    [Fact]
    public async Task WithAndWithoutASpatialIndex_RandomSpatialQueriesAnswerTheSame_AndTheScanIsChargedForEveryDocument()
    {
        var indexed = await NewContainerAsync(spatialIndex: true);
        var scanned = await NewContainerAsync(spatialIndex: false);
        var random = new Random(20261123);
        var documents = Enumerable.Range(0, Documents).Select(i => RandomReading(random, i)).ToList();
        await WriteAsync([indexed, scanned], documents);

        var indexedCharge = 0.0;
        for (var q = 0; q < 30; q++)
        {
            var (query, partition) = RandomQuery(random, q);
            var (withIndex, chargeWithIndex) = await IdsAsync(indexed, query, partition);
            var (withScan, chargeWithScan) = await IdsAsync(scanned, query, partition);
            Assert.True(withScan.SequenceEqual(withIndex), $"{query.QueryText} ({Describe(query)}, partition {partition}): scan {withScan.Count} ids, index {withIndex.Count}");
            // Without the spatial index a purely spatial filter is a full scan: a point read of every document in scope.
            // (With a range-indexed term beside it, the range index serves the filter on both containers.)
            var inScope = partition is null ? Documents : documents.Count(d => d.deviceId == partition);
            var purelySpatial = !query.QueryText.Contains("c.Seq", StringComparison.Ordinal);
            Assert.True(!purelySpatial || chargeWithScan >= 2.3 + inScope, $"scan charged {chargeWithScan} RU for {inScope} documents");
            Assert.True(chargeWithScan >= chargeWithIndex, $"{query.QueryText}: scan {chargeWithScan} RU, index {chargeWithIndex} RU");
            indexedCharge += chargeWithIndex;
            if (q == 0)
            {
                Assert.NotEmpty(withIndex);
            }
        }

        // The index read far fewer documents over the run than the scans (each of which read them all).
        Assert.True(indexedCharge < 30 * Documents / 2, $"the indexed queries charged {indexedCharge} RU in all");

        // The index follows writes: documents move, lose their location, and go.
        var moved = documents.Take(150).Select((d, i) => d with { location = i % 5 == 0 ? null : RandomPoint(random) }).ToList();
        await WriteAsync([indexed, scanned], moved);
        foreach (var gone in documents.Skip(150).Take(60))
        {
            await indexed.DeleteItemAsync<Reading>(gone.id, new PartitionKey(gone.deviceId));
            await scanned.DeleteItemAsync<Reading>(gone.id, new PartitionKey(gone.deviceId));
        }

        for (var q = 0; q < 10; q++)
        {
            var (query, partition) = RandomQuery(random, q);
            var (withIndex, _) = await IdsAsync(indexed, query, partition);
            var (withScan, _) = await IdsAsync(scanned, query, partition);
            Assert.True(withScan.SequenceEqual(withIndex), $"after writes: {query.QueryText} ({Describe(query)}): scan {withScan.Count} ids, index {withIndex.Count}");
        }
    }

    [Fact]
    public async Task WithoutASpatialIndex_ASpatialQueryIsAFullScan_WithTheIndexItReadsOnlyTheBox()
    {
        var indexed = await NewContainerAsync(spatialIndex: true);
        var scanned = await NewContainerAsync(spatialIndex: false);
        var random = new Random(7);
        var documents = Enumerable.Range(0, 300).Select(i => RandomReading(random, i)).ToList();
        documents.Add(new Reading("berlin", "dev-x", 1, Point.At(13.40, 52.52)));
        await WriteAsync([indexed, scanned], documents);
        var query = new QueryDefinition("SELECT c.id FROM c WHERE ST_DISTANCE(c.location, @p) < 2000").WithParameter("@p", Point.At(13.41, 52.52));

        var (withIndex, indexCharge) = await IdsAsync(indexed, query, null);
        var (withScan, scanCharge) = await IdsAsync(scanned, query, null);

        Assert.Equal(["berlin"], withIndex);
        Assert.Equal(["berlin"], withScan);
        Assert.Equal(2.3 + documents.Count, scanCharge);
        Assert.Equal(2.3 + 1, indexCharge);
    }

    private async Task<Container> NewContainerAsync(bool spatialIndex)
    {
        var properties = new ContainerProperties(Guid.NewGuid().ToString("N"), "/deviceId");
        if (spatialIndex)
        {
            properties.IndexingPolicy.SpatialIndexes.Add(new SpatialPath { Path = "/location/?", SpatialTypes = { SpatialType.Point } });
        }
        else
        {
            properties.IndexingPolicy.ExcludedPaths.Add(new ExcludedPath { Path = "/location/*" });
        }

        return await fixture.Database.CreateContainerAsync(properties);
    }

    private static async Task WriteAsync(Container[] containers, IReadOnlyList<Reading> documents)
    {
        foreach (var chunk in documents.Chunk(50))
        {
            await Task.WhenAll(containers.SelectMany(c => chunk.Select(d => c.UpsertItemAsync(d, new PartitionKey(d.deviceId)))));
        }
    }

    private static async Task<(List<string> Ids, double Charge)> IdsAsync(Container container, QueryDefinition query, string? partition)
    {
        var ids = new List<string>();
        var charge = 0.0;
        using var iterator = container.GetItemQueryIterator<IdOnly>(query, requestOptions: new QueryRequestOptions
        {
            PartitionKey = partition is null ? null : new PartitionKey(partition),
            MaxItemCount = 100,
        });
        while (iterator.HasMoreResults)
        {
            var page = await iterator.ReadNextAsync();
            charge += page.RequestCharge;
            ids.AddRange(page.Select(r => r.id));
        }

        ids.Sort(StringComparer.Ordinal);
        return (ids, charge);
    }

    /// <summary>Points over Europe and around; one in ten documents has no location or a value that is not a Point.</summary>
    private static Reading RandomReading(Random random, int i) => new(
        string.Create(CultureInfo.InvariantCulture, $"r{i}"),
        string.Create(CultureInfo.InvariantCulture, $"dev-{i % 8}"),
        i,
        (i % 20) switch
        {
            0 => null,
            1 => new Point("Polygon", [0, 0]),
            _ => RandomPoint(random),
        });

    private static Point RandomPoint(Random random) => Point.At(Math.Round(-10 + (random.NextDouble() * 40), 5), Math.Round(35 + (random.NextDouble() * 30), 5));

    /// <summary>A circle (1 km to 1,000 km, either argument order, &lt; or &lt;=, or the radius on the left) or a
    /// polygon, sometimes with another filter, and every fourth one within one partition.</summary>
    private static (QueryDefinition Query, string? Partition) RandomQuery(Random random, int q)
    {
        var centre = RandomPoint(random);
        var radius = Math.Round(Math.Pow(10, 3 + (random.NextDouble() * 3)));
        var query = (q % 5) switch
        {
            0 => new QueryDefinition("SELECT c.id FROM c WHERE ST_DISTANCE(c.location, @p) < @r").WithParameter("@p", centre).WithParameter("@r", radius),
            1 => new QueryDefinition("SELECT c.id FROM c WHERE @r >= ST_DISTANCE(@p, c.location)").WithParameter("@p", centre).WithParameter("@r", radius),
            2 => new QueryDefinition("SELECT c.id FROM c WHERE c.Seq > @s AND ST_DISTANCE(c.location, @p) <= @r")
                .WithParameter("@s", random.Next(Documents)).WithParameter("@p", centre).WithParameter("@r", radius),
            _ => new QueryDefinition("SELECT c.id FROM c WHERE ST_WITHIN(c.location, @area)").WithParameter("@area", RandomBox(random, centre)),
        };
        return (query, q % 4 == 3 ? string.Create(CultureInfo.InvariantCulture, $"dev-{random.Next(8)}") : null);
    }

    /// <summary>A box of 0.5° to 10° a side around the centre, counter-clockwise as GeoJSON asks.</summary>
    private static object RandomBox(Random random, Point centre)
    {
        var (lon, lat) = (centre.coordinates[0], centre.coordinates[1]);
        var (w, h) = (0.25 + (random.NextDouble() * 5), 0.25 + (random.NextDouble() * 5));
        return new
        {
            type = "Polygon",
            coordinates = new[] { new[] { new[] { lon - w, lat - h }, new[] { lon + w, lat - h }, new[] { lon + w, lat + h }, new[] { lon - w, lat + h }, new[] { lon - w, lat - h } } },
        };
    }

    private static string Describe(QueryDefinition query) =>
        string.Join(", ", query.GetQueryParameters().Select(p => $"{p.Name}={Newtonsoft.Json.JsonConvert.SerializeObject(p.Value)}"));

    private sealed record IdOnly(string id);
}
