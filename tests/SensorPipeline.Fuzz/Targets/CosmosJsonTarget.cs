using System.Text.Json;
using System.Text.Json.Nodes;
using SensorPipeline.CosmosEmulator.Documents;
using SensorPipeline.CosmosEmulator.Query;
using SensorPipeline.CosmosEmulator.Queries;

namespace SensorPipeline.Fuzz.Targets;

/// <summary>
/// The Cosmos DB emulator's JSON request bodies, chosen by the input's first byte: a document (create/upsert/replace:
/// <see cref="DocumentBuilder"/> and the partition key), a Patch request (<see cref="PatchApplier"/> applied to a stored
/// document, its filter predicate run), or a query request (<see cref="QueryRunner"/>, executed over stored documents).
/// Refusals are what the gateway answers 400/413 with: <see cref="StoreException"/>, and <see cref="JsonException"/>
/// (the dispatcher answers it 400).
/// </summary>
internal static class CosmosJsonTarget
{
    private static readonly string[][] PartitionKeyPath = [["deviceId"]];

    /// <summary>A stored document as the handler writes one (GeoJSON Feature).</summary>
    public static readonly byte[] StoredDocument =
        """{"id":"weather-0001-7","deviceId":"weather-0001","type":"Feature","geometry":{"type":"Point","coordinates":[-122.33,47.61]},"properties":{"kind":"weather","sequence":7,"temperatureC":11.5},"version":"00000000000000000007","tags":["a","b"],"_rid":"AAAAAA==","_etag":"\"1\"","_ts":1795298400}"""u8.ToArray();

    internal static void Run(byte[] input)
    {
        if (input.Length == 0)
        {
            return;
        }

        var body = input.AsMemory(1);
        switch (input[0] % 3)
        {
            case 0:
                Document(body);
                break;
            case 1:
                Patch(body);
                break;
            default:
                Query(body);
                break;
        }
    }

    private static void Document(ReadOnlyMemory<byte> body)
    {
        using var parsed = DocumentBuilder.Parse(body);
        _ = PartitionKeys.FromDocument(parsed.RootElement, PartitionKeyPath);
        var json = DocumentBuilder.Build(parsed.RootElement, "AAAAAA==", "dbs/db/colls/c/docs/AAAAAA==/", "\"1\"", 1_795_298_400, out _);
        using var stored = JsonDocument.Parse(json);
    }

    private static void Patch(ReadOnlyMemory<byte> body)
    {
        var (operations, condition) = PatchApplier.ParseRequest(body);
        if (condition is not null)
        {
            _ = QueryRunner.Predicate(condition)(StoredDocument);
        }

        var document = JsonNode.Parse(StoredDocument)!.AsObject();
        PatchApplier.Apply(document, operations);
        using var patched = JsonSerializer.SerializeToDocument(document);
    }

    private static void Query(ReadOnlyMemory<byte> body)
    {
        using var request = new QueryRunner(TimeProvider.System).Parse(body);
        _ = request.Query.Execute([StoredDocument, StoredDocument], request.Parameters);
    }
}
