using System.Globalization;
using System.Text.Json;
using SensorPipeline.CosmosEmulator.Documents;
using SensorPipeline.CosmosEmulator.Query;
using SensorPipeline.CosmosEmulator.Throttling;

namespace SensorPipeline.CosmosEmulator.Tests;

/// <summary>
/// A query that pins ids reads its candidates from the container's dictionaries (<see cref="ContainerState.IdCandidates"/>)
/// instead of scanning: on random containers — ids repeated across partitions, documents deleted and rewritten so the
/// dictionaries' order is not insertion order, some expired, a numeric, a null and a missing partition key, four
/// partition key ranges — and random ReadMany-shaped queries (absent ids, wrong keys, duplicates, mixed keys, ORDER BY,
/// TOP, projections), over the whole container, one partition key and each range, the result (items in order) and the
/// charge's basis (documents and bytes matched) equal the scan's, and only the pinned documents are read.
/// </summary>
[Trait("Category", "Fast")]
public sealed class IdLookupTests
{
    private const long Now = 1_000_000;
    private static readonly string[] Devices = ["\"d0\"", "\"d1\"", "\"d2\"", "\"d3\"", "\"dé\"", "7", "null", "true", ""];

    [Fact]
    public void IdCandidates_RandomContainersAndReadManyShapes_SameResultAndChargeAsTheScan()
    {
        for (var seed = 0; seed < 200; seed++)
        {
            var random = new Random(seed);
            var container = RandomContainer(random);
            for (var round = 0; round < 10; round++)
            {
                var (sql, parameters) = RandomQuery(random);
                var (key, range) = RandomScope(random, container);
                var query = SqlQuery.Parse(sql);
                var lookup = query.FindIdLookup(parameters, container.PartitionKeyPaths);
                Assert.NotNull(lookup);

                var candidates = container.IdCandidates(lookup, key, range, Now);
                var scan = query.Execute(Bytes(container.Snapshot(key, range, Now)), parameters);
                var looked = query.Execute(Bytes(candidates), parameters);

                var context = $"seed {seed} round {round}: {sql} over key {key ?? "-"}, range {range?.ToString(CultureInfo.InvariantCulture) ?? "-"}";
                Assert.True(scan.Items.Select(Text).SequenceEqual(looked.Items.Select(Text)),
                    $"{context}: scan [{string.Join(", ", scan.Items.Select(Text))}], lookup [{string.Join(", ", looked.Items.Select(Text))}]");
                Assert.True((scan.DocumentsMatched, scan.BytesMatched) == (looked.DocumentsMatched, looked.BytesMatched), context);
                Assert.True(candidates.Count <= lookup.Keys.Count * Devices.Length, context);
            }
        }
    }

    [Fact]
    public void IdCandidates_PinnedKeys_ReadOnlyTheirDocuments()
    {
        var container = RandomContainer(new Random(7));
        var some = container.Snapshot(null, Now).Select(Parsed).Where(static d => d.Device.StartsWith('"')).Take(5).ToList();
        var pairs = string.Join(" OR ", some.Select((d, i) => $"(c.id = '{d.Id}' AND c.deviceId = {d.Device})"));
        var query = SqlQuery.Parse($"SELECT * FROM c WHERE {pairs}");

        var candidates = container.IdCandidates(query.FindIdLookup([], container.PartitionKeyPaths)!, null, null, Now);

        Assert.Equal(some.Order(), candidates.Select(Parsed).Order());
        Assert.True(container.DocumentCount > 4 * some.Count, "the container holds many more documents than were asked for");
    }

    /// <summary>60–160 documents with ids r0…r39 over the devices (so an id recurs in several partitions), a third of
    /// them deleted and some rewritten after, every tenth expired.</summary>
    private static ContainerState RandomContainer(Random random)
    {
        var resource = """{"id":"items","_rid":"AAAAAA==","_self":"dbs/AA==/colls/AAAAAA==/","_etag":"\"1\"","defaultTtl":3600,"partitionKey":{"paths":["/deviceId"],"kind":"Hash","version":2}}"""u8.ToArray();
        var container = new ContainerState("db", resource, new TokenBucket(0, TimeProvider.System)) { RequestedRanges = 4 };
        var count = random.Next(60, 160);
        var written = new List<(string Key, string Id)>();
        for (var i = 0; i < count; i++)
        {
            var device = Devices[random.Next(Devices.Length)];
            var id = "r" + random.Next(40).ToString(CultureInfo.InvariantCulture);
            var body = device.Length == 0
                ? $$"""{"id":"{{id}}","n":{{random.Next(10)}},"i":{{i}}}"""
                : $$"""{"id":"{{id}}","deviceId":{{device}},"n":{{random.Next(10)}},"i":{{i}}}""";
            using var parsed = JsonDocument.Parse(body);
            var key = PartitionKeys.FromDocument(parsed.RootElement, container.PartitionKeyPaths);
            var timestamp = i % 10 == 9 ? Now - 7200 : Now - 10;
            container.Put(key, id, new StoredDocument(Encoding.UTF8.GetBytes(body), "\"e\"", timestamp, null));
            written.Add((key, id));
            if (random.Next(3) == 0)
            {
                var (removeKey, removeId) = written[random.Next(written.Count)];
                container.Remove(removeKey, removeId);
            }
        }

        return container;
    }

    private static (string Sql, IReadOnlyList<KeyValuePair<string, JsonElement>> Parameters) RandomQuery(Random random)
    {
        var parameters = new List<KeyValuePair<string, JsonElement>>();
        string Parameter(string name, string json)
        {
            parameters.Add(new(name, JsonDocument.Parse(json).RootElement.Clone()));
            return name;
        }

        var pairs = random.Next(0, 12);
        string where;
        switch (random.Next(4))
        {
            case 0 when pairs > 0:
                // The SDK's ReadMany for a container keyed by /deviceId: pairs, duplicates possible, a None branch.
                where = "( " + string.Join(" OR ", Enumerable.Range(0, pairs).Select(i =>
                {
                    var id = Parameter($"@param_id{i}", $"\"r{random.Next(45)}\"");
                    var device = Devices[random.Next(Devices.Length)];
                    return device.Length == 0
                        ? $"( c.id = {id} AND IS_DEFINED(c[\"deviceId\"]) = false )"
                        : $"( c.id = {id} AND c[\"deviceId\"] = {Parameter($"@param_pk{i}0", device)} )";
                })) + " )";
                break;
            case 1 when pairs > 0:
                where = "c.id IN (" + string.Join(", ", Enumerable.Range(0, pairs).Select(_ => random.Next(5) == 0 ? "5" : $"'r{random.Next(45)}'")) + ")";
                break;
            case 2:
                where = $"c.n >= {random.Next(5)} AND ('r{random.Next(45)}' = c.id OR c.id = {Parameter("@x", $"\"r{random.Next(45)}\"")}) AND c.deviceId = 'd{random.Next(4)}'";
                break;
            default:
                where = $"c.id = 'r{random.Next(45)}'";
                break;
        }

        var select = random.Next(3) switch
        {
            0 => "SELECT * FROM c",
            1 => "SELECT TOP 3 c.id, c.deviceId, c.i FROM c",
            _ => "SELECT VALUE c.i FROM c",
        };
        var orderBy = random.Next(3) == 0 ? " ORDER BY c.n" : "";
        return (select + " WHERE " + where + orderBy, parameters);
    }

    /// <summary>The whole container, one partition key (possibly absent), or one of the four ranges.</summary>
    private static (string? Key, int? Range) RandomScope(Random random, ContainerState container) => random.Next(3) switch
    {
        0 => (null, null),
        1 => (PartitionKeys.FromHeader($"[{Devices[random.Next(Devices.Length - 1)]}]"), null),
        _ => (null, random.Next(container.Ranges.Count)),
    };

    private static List<ReadOnlyMemory<byte>> Bytes(List<StoredDocument> documents) => [.. documents.Select(d => (ReadOnlyMemory<byte>)d.Json)];

    private static string Text(byte[] item) => Encoding.UTF8.GetString(item);

    private static (string Id, string Device) Parsed(StoredDocument document)
    {
        using var parsed = JsonDocument.Parse(document.Json);
        var root = parsed.RootElement;
        return (root.GetProperty("id").GetString()!, root.TryGetProperty("deviceId", out var device) ? device.GetRawText() : "undefined");
    }
}
