using System.Net.Http.Json;
using System.Text.Json;
using Microsoft.Azure.Cosmos;

namespace SensorPipeline.CosmosEmulator.Tests;

/// <summary>
/// A fault for one document inside a bulk request (its own result fails, the rest of the request is written), and
/// ReadMany (the SDK's query of many id/partition-key pairs), against the real emulator process.
/// </summary>
public sealed class PerDocumentFaultAndReadManyTests(EmulatorFixture fixture) : IClassFixture<EmulatorFixture>
{
    [Fact]
    public async Task Upsert_PerDocumentFaultInABulkRequest_FailsOnlyThatDocument()
    {
        var container = await fixture.NewContainerAsync();
        await using (await fixture.SwitchOnAsync("_emulator/faults", new { status = 413, seconds = 60, documentContains = "poison-doc" }))
        {
            using var bulk = fixture.Emulator.CreateClient(bulk: true, rateLimitRetries: 0);
            var target = bulk.GetContainer(fixture.Database.Id, container.Id);
            var writes = Enumerable.Range(0, 40).Select(async i =>
            {
                var id = i == 17 ? "poison-doc" : $"fine-{i}";
                using var response = await target.UpsertItemStreamAsync(Json($$"""{"id":"{{id}}","deviceId":"d{{i % 3}}"}"""), new PartitionKey($"d{i % 3}"));
                return (id, response.StatusCode);
            }).ToArray();
            var results = await Task.WhenAll(writes);

            Assert.Equal(HttpStatusCode.RequestEntityTooLarge, Assert.Single(results, r => r.id == "poison-doc").StatusCode);
            Assert.All(results.Where(r => r.id != "poison-doc"), r => Assert.Equal(HttpStatusCode.Created, r.StatusCode));
        }

        using var missing = await container.ReadItemStreamAsync("poison-doc", new PartitionKey("d2"));
        Assert.Equal(HttpStatusCode.NotFound, missing.StatusCode);
    }

    [Fact]
    public async Task Faults_EmptyMarkerOrWholeRequestRejection_BadRequest()
    {
        using var admin = CosmosClients.EmulatorAdminClient(fixture.Emulator.Endpoint);
        using var empty = await admin.PostAsJsonAsync("_emulator/faults", new { status = 400, seconds = 1, documentContains = "" });
        Assert.Equal(HttpStatusCode.BadRequest, empty.StatusCode);
        using var wholeRequest = await admin.PostAsJsonAsync("_emulator/faults", new { status = 400, seconds = 1 });
        Assert.Equal(HttpStatusCode.BadRequest, wholeRequest.StatusCode);
    }

    [Fact]
    public async Task Upsert_ContainerFault_RefusesWritesToThatContainerOnly()
    {
        var refusing = await fixture.NewContainerAsync();
        var other = await fixture.NewContainerAsync();
        await using (await fixture.SwitchOnAsync("_emulator/faults", new { status = 400, subStatus = 1001, seconds = 60, writesOnly = true, container = refusing.Id }))
        {
            using var refused = await refusing.UpsertItemStreamAsync(Json("""{"id":"a","deviceId":"d"}"""), new PartitionKey("d"));
            using var taken = await other.UpsertItemStreamAsync(Json("""{"id":"a","deviceId":"d"}"""), new PartitionKey("d"));
            using var read = await refusing.ReadItemStreamAsync("a", new PartitionKey("d"));

            Assert.Equal(HttpStatusCode.BadRequest, refused.StatusCode);
            Assert.Equal("1001", refused.Headers["x-ms-substatus"]);
            Assert.Equal(HttpStatusCode.Created, taken.StatusCode);
            Assert.Equal(HttpStatusCode.NotFound, read.StatusCode); // reads still answer, and the refused write left nothing
        }
    }

    [Fact]
    public async Task ReadMany_ReturnsTheDocumentsThatExist_AcrossPartitionKeys()
    {
        var container = await fixture.NewContainerAsync();
        for (var i = 0; i < 5; i++)
        {
            using var written = await container.UpsertItemStreamAsync(Json($$"""{"id":"r{{i}}","deviceId":"dev-{{i}}","n":{{i}}}"""), new PartitionKey($"dev-{i}"));
            Assert.Equal(HttpStatusCode.Created, written.StatusCode);
        }

        // r1 under the wrong key and r9 do not exist; r0, r2 and r4 do.
        IReadOnlyList<(string, PartitionKey)> asked = [("r0", new("dev-0")), ("r1", new("dev-2")), ("r2", new("dev-2")), ("r4", new("dev-4")), ("r9", new("dev-9"))];
        using var response = await container.ReadManyItemsStreamAsync(asked);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        using var body = await JsonDocument.ParseAsync(response.Content);
        var ids = body.RootElement.GetProperty("Documents").EnumerateArray().Select(d => d.GetProperty("id").GetString()!).Order().ToArray();
        Assert.Equal(new[] { "r0", "r2", "r4" }, ids);
    }

    private static MemoryStream Json(string text) => new(Encoding.UTF8.GetBytes(text));
}
