using System.Net;
using System.Text;
using Microsoft.Azure.Cosmos;
using Newtonsoft.Json.Linq;

namespace SensorPipeline.EndToEnd.Bench;

/// <summary>One lever measured on the same documents before and after: RU per operation each way, from the emulator.</summary>
internal sealed record LeverRow(string Lever, string Operation, string Before, double BeforeRu, string After, double AfterRu, int Documents);

/// <summary>What the levers measured: the rows, the TTL expiry of a reading under the deployed policy, and the size of
/// a reading as stored (system properties included) as written and with short property names.</summary>
internal sealed record LeverFigures(IReadOnlyList<LeverRow> Rows, double ExpiryRuPerReading, double ArchiveCreateRu, double StoredReadingBytes, double CompactReadingBytes);

/// <summary>
/// Each lever's effect, measured in the same run on documents the chain itself wrote: a sample of its readings and device
/// states is written again into scratch containers — the policy this repository deployed before (the service's default,
/// every path, plus the Point index) beside the one it deploys now (<c>infra/app/indexing-policies.json</c>) — and the
/// emulator's charges compared: a reading's create, its TTL expiry (the scratch containers expire after 1 s, and the
/// emulator's purge charges each expiry as the service's background delete), a device state's create and the handler's
/// Patch of <c>/version</c>, <c>/geometry</c>, <c>/properties</c> to a newer state. A reading with short property
/// names is created too, for the size lever.
/// </summary>
internal static class CostLevers
{
    public const int Sample = 200;
    private const string Database = "cost-levers";
    private static readonly TimeSpan ExpiryTimeout = TimeSpan.FromSeconds(60);

    /// <summary>The service's default policy: every path, <c>_etag</c> excluded (the archive's before).</summary>
    private static readonly JObject DefaultPolicy = JObject.Parse("""
        {"indexingMode":"consistent","automatic":true,"includedPaths":[{"path":"/*"}],"excludedPaths":[{"path":"/\"_etag\"/?"}],"spatialIndexes":[]}
        """);

    /// <summary>The policy before: the service's default (every path, <c>_etag</c> excluded) with the Point index the
    /// template added for readings and devices.</summary>
    private static readonly JObject Before = JObject.Parse("""
        {"indexingMode":"consistent","automatic":true,"includedPaths":[{"path":"/*"}],"excludedPaths":[{"path":"/\"_etag\"/?"}],
         "spatialIndexes":[{"path":"/geometry/*","types":["Point"]}]}
        """);

    public static async Task<LeverFigures> MeasureAsync(LocalPipeline pipeline, string root, CancellationToken cancellationToken)
    {
        using var client = pipeline.CreateCosmosClient();
        var source = client.GetDatabase(pipeline.Options.DatabaseName);
        var readings = await SampleAsync(source.GetContainer("readings"), cancellationToken);
        var devices = await SampleAsync(source.GetContainer("devices"), cancellationToken);
        var deployed = JObject.Parse(await File.ReadAllTextAsync(Path.Combine(root, "infra", "app", "indexing-policies.json"), cancellationToken));
        var database = (await client.CreateDatabaseIfNotExistsAsync(Database, cancellationToken: cancellationToken)).Database;

        var readingsBefore = await ContainerAsync(database, "lever-readings-before", Before, 1, cancellationToken);
        var readingsAfter = await ContainerAsync(database, "lever-readings-after", (JObject)deployed["readings"]!, 1, cancellationToken);
        var compact = await ContainerAsync(database, "lever-readings-compact", (JObject)deployed["readings"]!, null, cancellationToken);
        var withoutKey = (JObject)deployed["readings"]!.DeepClone();
        withoutKey["includedPaths"] = new JArray();
        var unkeyed = await ContainerAsync(database, "lever-readings-unkeyed", withoutKey, null, cancellationToken);
        var archiveBefore = await ContainerAsync(database, "lever-archive-before", DefaultPolicy, null, cancellationToken);
        var archiveAfter = await ContainerAsync(database, "lever-archive-after", (JObject)deployed["archive"]!, null, cancellationToken);
        var createBefore = await CreateAllAsync(readingsBefore, readings, cancellationToken);
        var createAfter = await CreateAllAsync(readingsAfter, readings, cancellationToken);
        var shortNames = readings.Select(Compact).ToList();
        var createCompact = await CreateAllAsync(compact, shortNames, cancellationToken);
        var createUnkeyed = await CreateAllAsync(unkeyed, readings, cancellationToken);
        var archivedBefore = await CreateAllAsync(archiveBefore, readings, cancellationToken);
        var archivedAfter = await CreateAllAsync(archiveAfter, readings, cancellationToken);
        var expiry = await ExpiryAsync(pipeline.CosmosEndpoint, readingsBefore.Id, readingsAfter.Id, readings.Count, cancellationToken);

        var devicesBefore = await ContainerAsync(database, "lever-devices-before", Before, null, cancellationToken);
        var devicesAfter = await ContainerAsync(database, "lever-devices-after", (JObject)deployed["devices"]!, null, cancellationToken);
        var stateBefore = await CreateAllAsync(devicesBefore, devices, cancellationToken);
        var stateAfter = await CreateAllAsync(devicesAfter, devices, cancellationToken);
        var patchBefore = await PatchAllAsync(devicesBefore, devices, cancellationToken);
        var patchAfter = await PatchAllAsync(devicesAfter, devices, cancellationToken);
        await database.DeleteStreamAsync(cancellationToken: cancellationToken);

        const string was = "every path + Point index", now = "deployed policy";
        var storedBytes = readings.Average(static r => (double)r.Stored);
        LeverRow[] rows =
        [
            new("indexing policy", "reading create", was, createBefore, now, createAfter, readings.Count),
            new("indexing policy", "reading TTL expiry", was, expiry.Before, now, expiry.After, readings.Count),
            new("partition key path indexed", "reading create (and so its expiry)", "/deviceId/? included (deployed)", createAfter, "not indexed", createUnkeyed, readings.Count),
            new("indexing policy", "stale reading create (archive)", "every path", archivedBefore, now, archivedAfter, readings.Count),
            new("indexing policy", "device state create", was, stateBefore, now, stateAfter, devices.Count),
            new("indexing policy", "device state Patch to a newer state", was, patchBefore, now, patchAfter, devices.Count),
            new("short property names", "reading create", $"as written, {storedBytes:N0} B stored", createAfter,
                $"short names, {shortNames.Average(static r => (double)r.Stored):N0} B", createCompact, readings.Count),
        ];
        return new LeverFigures(rows, expiry.After, archivedAfter, storedBytes, shortNames.Average(static r => (double)r.Stored));
    }

    /// <summary>A stored document: the chain's JSON without the service's properties, its key, and its size as stored
    /// (system properties included).</summary>
    private sealed record Document(JObject Body, string PartitionKey, int Stored);

    private static async Task<List<Document>> SampleAsync(Container container, CancellationToken cancellationToken)
    {
        var found = new List<Document>();
        using var iterator = container.GetItemQueryStreamIterator("SELECT * FROM c", requestOptions: new QueryRequestOptions { MaxItemCount = Sample });
        while (iterator.HasMoreResults && found.Count < Sample)
        {
            using var page = await iterator.ReadNextAsync(cancellationToken);
            page.EnsureSuccessStatusCode();
            using var reader = new StreamReader(page.Content);
            foreach (var item in JObject.Parse(await reader.ReadToEndAsync(cancellationToken))["Documents"]!.Cast<JObject>().Take(Sample - found.Count))
            {
                var stored = Encoding.UTF8.GetByteCount(item.ToString(Newtonsoft.Json.Formatting.None));
                foreach (var system in new[] { "_rid", "_self", "_etag", "_attachments", "_ts" })
                {
                    item.Remove(system);
                }

                found.Add(new Document(item, (string)item["deviceId"]!, stored));
            }
        }

        return found.Count > 1 ? found : throw new InvalidOperationException($"{container.Id}: fewer than 2 documents to measure the levers on.");
    }

    private static async Task<Container> ContainerAsync(Database database, string name, JObject policy, int? ttl, CancellationToken cancellationToken)
    {
        var properties = new ContainerProperties(name, "/deviceId")
        {
            PartitionKeyDefinitionVersion = PartitionKeyDefinitionVersion.V2,
            IndexingPolicy = policy.ToObject<IndexingPolicy>()!,
            DefaultTimeToLive = ttl,
        };
        return (await database.CreateContainerAsync(properties, cancellationToken: cancellationToken)).Container;
    }

    /// <summary>Creates every document; returns the mean request charge.</summary>
    private static async Task<double> CreateAllAsync(Container container, IReadOnlyList<Document> documents, CancellationToken cancellationToken)
    {
        var total = 0.0;
        foreach (var d in documents)
        {
            using var body = new MemoryStream(Encoding.UTF8.GetBytes(d.Body.ToString(Newtonsoft.Json.Formatting.None)));
            using var response = await container.CreateItemStreamAsync(body, new PartitionKey(d.PartitionKey), cancellationToken: cancellationToken);
            Ensure(response, HttpStatusCode.Created, container.Id);
            total += response.Headers.RequestCharge;
        }

        return total / documents.Count;
    }

    /// <summary>Patches each device state to the next one's version, geometry and properties (as the handler's guarded
    /// write does); returns the mean request charge.</summary>
    private static async Task<double> PatchAllAsync(Container container, IReadOnlyList<Document> states, CancellationToken cancellationToken)
    {
        var total = 0.0;
        for (var i = 0; i < states.Count; i++)
        {
            var state = states[i];
            var newer = states[(i + 1) % states.Count].Body;
            PatchOperation[] operations =
            [
                PatchOperation.Set("/version", newer["version"]),
                PatchOperation.Set("/geometry", newer["geometry"]),
                PatchOperation.Set("/properties", newer["properties"]),
            ];
            using var response = await container.PatchItemStreamAsync((string)state.Body["id"]!, new PartitionKey(state.PartitionKey), operations, cancellationToken: cancellationToken);
            Ensure(response, HttpStatusCode.OK, container.Id);
            total += response.Headers.RequestCharge;
        }

        return total / states.Count;
    }

    /// <summary>Waits until the emulator has expired every reading of both containers; returns the mean expiry charge of each.</summary>
    private static async Task<(double Before, double After)> ExpiryAsync(Uri endpoint, string before, string after, int count, CancellationToken cancellationToken)
    {
        var (b, a) = await Eventually.ValueAsync(async token =>
        {
            var charges = await EmulatorCharges.ReadAsync(endpoint, token);
            (long Count, double Ru) Expired(string container) => charges.Where(c => c.Container == container && c.Operation == "expiry")
                .Aggregate((Count: 0L, Ru: 0.0), (a, c) => (a.Count + c.Count, a.Ru + c.RequestUnits));
            return (Before: Expired(before), After: Expired(after));
        }, expired => expired.Before.Count >= count && expired.After.Count >= count,
            $"the emulator to expire {count} readings of each container (TTL 1 s; the last read shows the expired count and charge of each)",
            ExpiryTimeout, TimeSpan.FromMilliseconds(500), cancellationToken: cancellationToken);
        return (b.Ru / b.Count, a.Ru / a.Count);
    }

    /// <summary>The reading with every property name under <c>properties</c> cut to its initials (camelCase humps), the
    /// GeoJSON members kept: what the shortest names would save.</summary>
    private static Document Compact(Document reading)
    {
        var body = (JObject)reading.Body.DeepClone();
        if (body["properties"] is JObject properties)
        {
            body["properties"] = new JObject(properties.Properties().Select(static p =>
                new JProperty(new string([p.Name[0], .. p.Name.Skip(1).Where(char.IsUpper).Select(char.ToLowerInvariant)]) + p.Name.Length.ToString(System.Globalization.CultureInfo.InvariantCulture), p.Value)));
        }

        var shrink = Encoding.UTF8.GetByteCount(reading.Body.ToString(Newtonsoft.Json.Formatting.None)) - Encoding.UTF8.GetByteCount(body.ToString(Newtonsoft.Json.Formatting.None));
        return new Document(body, reading.PartitionKey, reading.Stored - shrink);
    }

    private static void Ensure(ResponseMessage response, HttpStatusCode expected, string container)
    {
        if (response.StatusCode != expected)
        {
            throw new InvalidOperationException($"{container}: {(int)response.StatusCode} {response.ErrorMessage}");
        }
    }
}
