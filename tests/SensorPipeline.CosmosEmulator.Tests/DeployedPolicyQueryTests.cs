using System.Text.Json;
using Microsoft.Azure.Cosmos;
using Newtonsoft.Json.Linq;
using SensorPipeline.Core.Partitioning;
using SensorPipeline.CosmosEmulator.Charging;
using SensorPipeline.CosmosEmulator.Partitioning;

namespace SensorPipeline.CosmosEmulator.Tests;

/// <summary>
/// Every Cosmos DB query the project runs, against the four containers exactly as infra deploys them
/// (<c>DeployedContainers.json</c>, which infra/tests/deploy.test.mjs checks against the compiled Bicep), on an emulator
/// serving four partition key ranges: <c>loadgen verify</c>'s two per-device queries and its dead-letter query,
/// <c>loadgen redrive</c>'s selection, the handler's ReadMany, its device-state recovery's window of <c>readings</c> and its pending-states marks, the test
/// helper's per-device query, and a spatial query on the readings' geometry. Each must run, answer right, and be served
/// by the index: charged 2.3 RU per range it touched plus one per matching 1-KB item, not per item in scope.
/// </summary>
public sealed class DeployedPolicyQueryTests : IAsyncLifetime
{
    private const int Ranges = 4;
    private static readonly string[] Devices = ["dev-weather-0001", "dev-weather-0002", "dev-seismic-0003"];
    private CosmosEmulatorProcess _emulator = null!;
    private CosmosClient _client = null!;
    private Database _database = null!;

    public async Task InitializeAsync()
    {
        _emulator = await CosmosEmulatorProcess.StartAsync(EmulatorClients.NewDataDirectory(), temporary: true, settings: [$"Cosmos:PartitionKeyRanges={Ranges}"]);
        _client = _emulator.CreateClient();
        _database = (await _client.CreateDatabaseIfNotExistsAsync("deployed")).Database;
        var deployed = JObject.Parse(await File.ReadAllTextAsync(Path.Combine(AppContext.BaseDirectory, "DeployedContainers.json")));
        foreach (var (name, definition) in deployed)
        {
            definition!["id"] = name;
            await _database.CreateContainerAsync(definition.ToObject<ContainerProperties>()!);
        }

        var readings = _database.GetContainer("readings");
        var archive = _database.GetContainer("archive");
        for (var d = 0; d < Devices.Length; d++)
        {
            for (var seq = 1; seq <= 2; seq++)
            {
                await Upsert(readings, Feature(Devices[d], seq, longitude: 13.4 + d, stale: false));
            }

            await Upsert(archive, Feature(Devices[d], 9, longitude: 13.4 + d, stale: true));
            await Upsert(_database.GetContainer("devices"), DeviceState(Devices[d], "00000000000000000002"));
        }

        var deadLetters = _database.GetContainer("deadletters");
        foreach (var (id, reason) in new[] { ("dl-1", "undecodable"), ("dl-2", "oversize"), ("dl-3", "invalid-reading") })
        {
            await Upsert(deadLetters, $$"""{"id":"{{id}}","deviceId":"dev-weather-0001","reason":"{{reason}}","payloadBase64":"AAEC","payloadSha256":"ab12","deadLetteredAt":"2026-11-26T12:00:00Z"}""");
        }
    }

    [Fact]
    public async Task VerifyQueries_PerDeviceAndForDeadLetters_AreServedByTheIndex()
    {
        var inDevice = new QueryRequestOptions { PartitionKey = new PartitionKey(Devices[0]), MaxItemCount = 10_000 };
        var (sequences, charge) = await RunAsync(_database.GetContainer("readings"), "SELECT VALUE c.properties.sequence FROM c", inDevice);
        Assert.Equal(["1", "2"], sequences.Order(StringComparer.Ordinal));
        Assert.Equal(RequestCharge.QueryBase + 2, charge);

        (var rows, charge) = await RunAsync(_database.GetContainer("archive"), "SELECT c.properties.sequence AS s, c.properties.enqueuedAt AS e FROM c", inDevice);
        Assert.Equal(["""{"s":9,"e":"2026-11-26T12:00:09Z"}"""], rows);
        Assert.Equal(RequestCharge.QueryBase + 1, charge);

        (rows, charge) = await RunAsync(_database.GetContainer("deadletters"), "SELECT c.id, c.deviceId, c.payloadBase64, c.payloadSha256 FROM c WHERE IS_DEFINED(c.reason)", null);
        Assert.Equal(3, rows.Count);
        Assert.Equal((Ranges * RequestCharge.QueryBase) + 3, charge);
    }

    [Fact]
    public async Task RedriveSelection_ByReasonOrAll_IsServedByTheIndex()
    {
        var query = new QueryDefinition("SELECT * FROM c WHERE c.reason = @r0 OR c.reason = @r1").WithParameter("@r0", "oversize").WithParameter("@r1", "undecodable");
        var (rows, charge) = await RunAsync(_database.GetContainer("deadletters"), query, null);
        Assert.Equal(["dl-1", "dl-2"], rows.Select(r => JsonDocument.Parse(r).RootElement.GetProperty("id").GetString()).Order(StringComparer.Ordinal));
        Assert.Equal((Ranges * RequestCharge.QueryBase) + 2, charge);

        (rows, _) = await RunAsync(_database.GetContainer("deadletters"), "SELECT * FROM c", null);
        Assert.Equal(3, rows.Count);
    }

    [Fact]
    public async Task HandlerReadMany_AndTheTestHelpersQuery_AreServedByTheIndex()
    {
        var readings = _database.GetContainer("readings");
        var wanted = Devices.Select(d => ($"{d}:1:638000000000000000", new PartitionKey(d))).Append(("dev-missing:1:0", new PartitionKey("dev-missing"))).ToList();
        using var many = await readings.ReadManyItemsStreamAsync(wanted);
        Assert.Equal(HttpStatusCode.OK, many.StatusCode);
        using var found = await JsonDocument.ParseAsync(many.Content);
        Assert.Equal(3, found.RootElement.GetProperty("Documents").GetArrayLength());
        // The SDK groups the ids by range: one query per range holding several (the base, plus each item found), a
        // point read for a range holding one (1 RU when found; a 404 costs nothing here).
        var ranges = new PartitionKeyRanges(Ranges);
        var expected = wanted.GroupBy(w => ranges.RangeOf(EffectivePartitionKey.Of($"[\"{w.Item1.Split(':')[0]}\"]")))
            .Sum(g => g.Count() > 1 ? RequestCharge.QueryBase + g.Count(w => !Missing(w.Item1)) : Missing(g.Single().Item1) ? 0 : 1);
        Assert.Equal(Math.Round(expected, 2), Math.Round(many.Headers.RequestCharge, 2));

        var helper = new QueryDefinition("SELECT c.id FROM c WHERE c.deviceId = @d").WithParameter("@d", Devices[1]);
        var (ids, charge) = await RunAsync(readings, helper, new QueryRequestOptions { PartitionKey = new PartitionKey(Devices[1]) });
        Assert.Equal(2, ids.Count);
        Assert.Equal(RequestCharge.QueryBase + 2, charge);
    }

    [Fact]
    public async Task SpatialQuery_OnTheReadingsGeometry_IsServedByTheSpatialIndex()
    {
        // Within 50 km of (13.4, 52.5): only the first device's two readings (the others are 1° and 2° of longitude east).
        var query = new QueryDefinition("SELECT c.id FROM c WHERE ST_DISTANCE(c.geometry, {'type': 'Point', 'coordinates': [13.4, 52.5]}) < 50000");
        var (ids, charge) = await RunAsync(_database.GetContainer("readings"), query, null);
        Assert.Equal(2, ids.Count);
        Assert.Equal((Ranges * RequestCharge.QueryBase) + 2, charge);
    }

    [Fact]
    public async Task DeviceStateRecovery_ReadingsStoredInAWindowByTs_IsServedByTheIndex()
    {
        // The handler's recovery query (DeviceStateRecovery.Query): every reading stored in a window of the store's clock.
        const string Sql = "SELECT * FROM c WHERE c._ts >= @from AND c._ts <= @to";
        var now = DateTimeOffset.UtcNow.ToUnixTimeSeconds();
        var readings = _database.GetContainer("readings");
        var (rows, charge) = await RunAsync(readings, new QueryDefinition(Sql).WithParameter("@from", now - 600).WithParameter("@to", now + 600), null);
        Assert.Equal(Devices.Length * 2, rows.Count);
        Assert.Equal((Ranges * RequestCharge.QueryBase) + rows.Count, charge);

        // A window before every reading loads none: the _ts index serves the filter (a scan would load all six).
        (rows, charge) = await RunAsync(readings, new QueryDefinition(Sql).WithParameter("@from", now - 7200).WithParameter("@to", now - 3600), null);
        Assert.Empty(rows);
        Assert.Equal(Ranges * RequestCharge.QueryBase, charge);
    }

    [Fact]
    public async Task PendingStatesMarks_OnePartitionOfDevices_ReadsTheMarksOnly()
    {
        var devices = _database.GetContainer("devices");
        await Upsert(devices, """{"id":"instance-a","deviceId":"~pending-device-states","storedBefore":1,"heartbeat":2,"expiresAt":3,"pending":0}""");
        var (rows, charge) = await RunAsync(devices, "SELECT * FROM c", new QueryRequestOptions { PartitionKey = new PartitionKey("~pending-device-states") });
        Assert.Single(rows);
        Assert.Equal(RequestCharge.QueryBase + 1, charge);
    }

    [Fact]
    public async Task Writes_UnderTheDeployedPolicies_ChargeOnlyTheIndexedTerms()
    {
        // A reading: id, _ts, deviceId and one spatial term; a device state: id, _ts, deviceId (documents under 1 KB: 5.0 RU).
        var readings = _database.GetContainer("readings");
        using var created = await readings.CreateItemStreamAsync(Stream(Feature("dev-weather-0009", 1, 13.4, stale: false)), new PartitionKey("dev-weather-0009"));
        Assert.Equal(HttpStatusCode.Created, created.StatusCode);
        Assert.Equal(5.0 + (0.2 * 4), created.Headers.RequestCharge, 2);
        using var deleted = await readings.DeleteItemStreamAsync("dev-weather-0009:1:638000000000000000", new PartitionKey("dev-weather-0009"));
        Assert.Equal(5.0 + (0.2 * 4), deleted.Headers.RequestCharge, 2);

        using var state = await _database.GetContainer("devices").CreateItemStreamAsync(Stream(DeviceState("dev-weather-0009", "00000000000000000001")), new PartitionKey("dev-weather-0009"));
        Assert.Equal(5.0 + (0.2 * 3), state.Headers.RequestCharge, 2);
    }

    private static MemoryStream Stream(string json) => new(Encoding.UTF8.GetBytes(json));

    private static bool Missing(string id) => id.StartsWith("dev-missing", StringComparison.Ordinal);

    public async Task DisposeAsync()
    {
        _client.Dispose();
        await _emulator.DisposeAsync();
    }

    private static Task<(List<string> Rows, double Charge)> RunAsync(Container container, string sql, QueryRequestOptions? options) =>
        RunAsync(container, new QueryDefinition(sql), options);

    private static async Task<(List<string> Rows, double Charge)> RunAsync(Container container, QueryDefinition query, QueryRequestOptions? options)
    {
        var rows = new List<string>();
        var charge = 0.0;
        using var iterator = container.GetItemQueryStreamIterator(query, requestOptions: options);
        while (iterator.HasMoreResults)
        {
            using var page = await iterator.ReadNextAsync();
            Assert.True(page.IsSuccessStatusCode, $"{page.StatusCode}: {page.ErrorMessage}");
            charge += page.Headers.RequestCharge;
            using var json = await JsonDocument.ParseAsync(page.Content);
            rows.AddRange(json.RootElement.GetProperty("Documents").EnumerateArray().Select(static e => e.GetRawText()));
        }

        return (rows, Math.Round(charge, 2));
    }

    private static async Task Upsert(Container container, string json)
    {
        using var document = JsonDocument.Parse(json);
        var key = document.RootElement.GetProperty(container.Id == "deadletters" ? "id" : "deviceId").GetString();
        using var response = await container.UpsertItemStreamAsync(new MemoryStream(Encoding.UTF8.GetBytes(json)), new PartitionKey(key));
        Assert.True(response.IsSuccessStatusCode, $"{response.StatusCode}: {response.ErrorMessage}");
    }

    /// <summary>A reading as the handler writes it (GeoJsonFeatureWriter's shape).</summary>
    private static string Feature(string device, int sequence, double longitude, bool stale) => $$$"""
        {"id":"{{{device}}}:{{{sequence}}}:638000000000000000","deviceId":"{{{device}}}","type":"Feature",
         "geometry":{"type":"Point","coordinates":[{{{longitude}}},52.5,34.0]},
         "properties":{"kind":"weather","sequence":{{{sequence}}},"observedAt":"2026-11-26T12:00:0{{{sequence}}}Z","enqueuedAt":"2026-11-26T12:00:0{{{sequence}}}Z",
          "sourcePartition":"0","sourceSequenceNumber":{{{sequence}}},{{{(stale ? "\"staleByMs\":1200," : "")}}}"temperatureC":21.5,"relativeHumidityPct":40.1,
          "pressureHpa":1013.2,"windSpeedMps":3.4,"windDirectionDeg":270.0,"rainMmph":0.0}}
        """;

    /// <summary>A device's latest state as the handler writes it (DeviceStateWriter's shape).</summary>
    private static string DeviceState(string device, string version) => $$$"""
        {"id":"{{{device}}}","deviceId":"{{{device}}}","type":"Feature","version":"{{{version}}}",
         "geometry":{"type":"Point","coordinates":[13.4,52.5,34.0]},
         "properties":{"kind":"weather","sequence":2,"observedAt":"2026-11-26T12:00:02Z","enqueuedAt":"2026-11-26T12:00:02Z","readingId":"{{{device}}}:2:638000000000000000"}}
        """;
}
