using System.Net;
using System.Text;
using Microsoft.Azure.Cosmos;
using SensorPipeline.Clients;

namespace SensorPipeline.Fuzz;

internal static partial class SeedCorpus
{
    /// <summary>Batch bodies exactly as the .NET SDK (Gateway mode) writes them: a transactional batch of every
    /// operation kind, and a bulk batch. The SDK talks to an in-memory handler that answers the account, container and
    /// partition-key-range reads it makes first and keeps each batch POST's body.</summary>
    private static IEnumerable<(string, byte[])> CosmosBatches()
    {
        var transactional = Capture(bulk: false, container => container.CreateTransactionalBatch(new PartitionKey("dev-1"))
            .CreateItem(new { id = "a", pk = "dev-1", v = 1 })
            .UpsertItem(new { id = "b", pk = "dev-1" }, new TransactionalBatchItemRequestOptions { IfMatchEtag = "\"e1\"" })
            .ReadItem("c")
            .ReplaceItem("d", new { id = "d", pk = "dev-1" }, new TransactionalBatchItemRequestOptions { IfNoneMatchEtag = "*", EnableContentResponseOnWrite = false })
            .DeleteItem("e")
            .PatchItem("f", [PatchOperation.Set("/x", 5), PatchOperation.Increment("/n", 1)],
                new TransactionalBatchPatchItemRequestOptions { FilterPredicate = "FROM c WHERE c.n < 3" })
            .ExecuteAsync());
        var bulk = Capture(bulk: true, container => Task.WhenAll(
            container.UpsertItemAsync(new { id = "g", pk = "dev-2", v = 2 }, new PartitionKey("dev-2")),
            container.UpsertItemAsync(new { id = "h", pk = "dev-3", v = 3 }, new PartitionKey("dev-3"))));
        return [("transactional-every-kind", transactional), ("bulk-upserts", bulk)];
    }

    private static byte[] Capture(bool bulk, Func<Container, Task> send)
    {
        using var gateway = new CapturingGateway();
        using var client = CosmosClients.Create(new Uri("https://localhost:8081/"), new CosmosClientOptions
        {
            AllowBulkExecution = bulk,
            HttpClientFactory = () => new HttpClient(gateway, disposeHandler: false),
        });
        try
        {
            send(client.GetContainer("db", "c")).GetAwaiter().GetResult();
        }
        catch (CosmosException)
        {
            // The gateway refuses every batch: only its body is wanted.
        }

        return gateway.Batch ?? throw new InvalidOperationException("the SDK sent no batch");
    }

    /// <summary>Answers the SDK's set-up reads; keeps the first batch body and refuses it (400).</summary>
    private sealed class CapturingGateway : HttpMessageHandler
    {
        private const string Account = """{"id":"localhost","_rid":"localhost","writableLocations":[{"name":"Local","databaseAccountEndpoint":"https://localhost:8081/"}],"readableLocations":[{"name":"Local","databaseAccountEndpoint":"https://localhost:8081/"}],"userConsistencyPolicy":{"defaultConsistencyLevel":"Session"},"queryEngineConfiguration":"{}"}""";
        private const string ContainerResource = """{"id":"c","partitionKey":{"paths":["/pk"],"kind":"Hash","version":2},"_rid":"2bEdAKvT0Eg=","_self":"dbs/2bEdAA==/colls/2bEdAKvT0Eg=/","_etag":"\"0\"","_ts":1700000000}""";
        private const string Ranges = """{"_rid":"2bEdAKvT0Eg=","PartitionKeyRanges":[{"id":"0","_rid":"2bEdAKvT0EgCAAAAAAAAUA==","minInclusive":"","maxExclusive":"FF","status":"online","parents":[]}],"_count":1}""";

        public byte[]? Batch { get; private set; }

        protected override async Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
        {
            var path = request.RequestUri!.AbsolutePath;
            if (request.Method == HttpMethod.Post && path.EndsWith("/docs", StringComparison.Ordinal))
            {
                Batch ??= await request.Content!.ReadAsByteArrayAsync(cancellationToken);
                return Answer(HttpStatusCode.BadRequest, """{"code":"BadRequest","message":"captured"}""");
            }

            if (path.EndsWith("/pkranges", StringComparison.Ordinal) && request.Headers.IfNoneMatch.Count > 0)
            {
                return new HttpResponseMessage(HttpStatusCode.NotModified);
            }

            return path switch
            {
                "/" => Answer(HttpStatusCode.OK, Account),
                "/dbs/db/colls/c" => Answer(HttpStatusCode.OK, ContainerResource),
                _ when path.EndsWith("/pkranges", StringComparison.Ordinal) => Answer(HttpStatusCode.OK, Ranges),
                _ => Answer(HttpStatusCode.NotFound, "{}"),
            };
        }

        private static HttpResponseMessage Answer(HttpStatusCode status, string json)
        {
            var response = new HttpResponseMessage(status) { Content = new StringContent(json, Encoding.UTF8, "application/json") };
            response.Headers.Add("x-ms-activity-id", Guid.NewGuid().ToString());
            response.Headers.ETag = new System.Net.Http.Headers.EntityTagHeaderValue("\"1\"");
            return response;
        }
    }
}
