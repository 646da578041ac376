using System.Collections.Concurrent;
using System.Net.Http.Headers;
using Microsoft.Azure.Cosmos;

namespace SensorPipeline.CosmosEmulator.Tests;

/// <summary>
/// The .NET SDK in Gateway mode, wired through an in-memory HTTP handler: it answers the account, container and
/// partition-key-range reads the SDK makes before a batch, records each batch POST (headers and HybridRow body) and
/// lets the test answer it. A pure codec test: it shows what the real SDK writes and what it accepts back; the
/// emulator process itself is tested end to end elsewhere.
/// </summary>
internal sealed class BatchSdkGateway : HttpMessageHandler
{
    private const string Endpoint = "https://localhost:8081/";

    private const string AccountJson =
        """{"id":"localhost","_rid":"localhost","_self":"","media":"//media/","addresses":"//addresses/","_dbs":"//dbs/","writableLocations":[{"name":"Local","databaseAccountEndpoint":"https://localhost:8081/"}],"readableLocations":[{"name":"Local","databaseAccountEndpoint":"https://localhost:8081/"}],"enableMultipleWriteLocations":false,"userReplicationPolicy":{"asyncReplication":false,"minReplicaSetSize":1,"maxReplicasetSize":4},"userConsistencyPolicy":{"defaultConsistencyLevel":"Session"},"systemReplicationPolicy":{"minReplicaSetSize":1,"maxReplicasetSize":4},"readPolicy":{"primaryReadCoefficient":1,"secondaryReadCoefficient":1},"queryEngineConfiguration":"{}"}""";

    private const string ContainerJson =
        """{"id":"c","partitionKey":{"paths":["/pk"],"kind":"Hash","version":2},"indexingPolicy":{"indexingMode":"consistent","automatic":true,"includedPaths":[{"path":"/*"}],"excludedPaths":[]},"_rid":"2bEdAKvT0Eg=","_self":"dbs/2bEdAA==/colls/2bEdAKvT0Eg=/","_etag":"\"0\"","_ts":1700000000,"_docs":"docs/"}""";

    private const string RangesJson =
        """{"_rid":"2bEdAKvT0Eg=","PartitionKeyRanges":[{"id":"0","_rid":"2bEdAKvT0EgCAAAAAAAAUA==","_etag":"\"0\"","minInclusive":"","maxExclusive":"FF","ridPrefix":0,"_self":"dbs/2bEdAA==/colls/2bEdAKvT0Eg=/pkranges/2bEdAKvT0EgCAAAAAAAAUA==/","throughputFraction":1,"status":"online","parents":[],"_ts":1700000000}],"_count":1}""";

    private readonly Func<CapturedBatch, HttpResponseMessage> _answer;

    public BatchSdkGateway(Func<CapturedBatch, HttpResponseMessage> answer)
    {
        _answer = answer;
    }

    /// <summary>Every batch request the SDK sent, in order.</summary>
    public ConcurrentQueue<CapturedBatch> Batches { get; } = new();

    /// <summary>A client on this handler; bulk when <paramref name="bulk"/> is set.</summary>
    public CosmosClient CreateClient(bool bulk) => CosmosClients.Create(new Uri(Endpoint), new CosmosClientOptions
    {
        AllowBulkExecution = bulk,
        HttpClientFactory = () => new HttpClient(this, disposeHandler: false),
        RequestTimeout = TimeSpan.FromSeconds(30),
    });

    /// <summary>A HybridRow batch answer with <paramref name="status"/> and the usual response headers.</summary>
    public static HttpResponseMessage HybridRowResponse(HttpStatusCode status, byte[] body, double charge = 0)
    {
        var response = new HttpResponseMessage(status) { Content = new ByteArrayContent(body) };
        response.Content.Headers.ContentType = new MediaTypeHeaderValue("application/json");
        response.Headers.Add("x-ms-activity-id", Guid.NewGuid().ToString());
        response.Headers.Add("x-ms-request-charge", charge.ToString(System.Globalization.CultureInfo.InvariantCulture));
        response.Headers.Add("x-ms-session-token", "0:-1#1");
        return response;
    }

    protected override async Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
    {
        var path = request.RequestUri!.AbsolutePath;
        if (request.Method == HttpMethod.Post && path.EndsWith("/docs", StringComparison.Ordinal))
        {
            var body = await request.Content!.ReadAsByteArrayAsync(cancellationToken);
            var headers = request.Headers.ToDictionary(h => h.Key, h => string.Join(",", h.Value), StringComparer.OrdinalIgnoreCase);
            var batch = new CapturedBatch(path, headers, body);
            Batches.Enqueue(batch);
            return _answer(batch);
        }

        if (path.EndsWith("/pkranges", StringComparison.Ordinal) && request.Headers.IfNoneMatch.Count > 0)
        {
            return new HttpResponseMessage(HttpStatusCode.NotModified);
        }

        var json = path switch
        {
            "/" => AccountJson,
            "/dbs/db/colls/c" => ContainerJson,
            _ when path.EndsWith("/pkranges", StringComparison.Ordinal) => RangesJson,
            _ => null,
        };
        var response = new HttpResponseMessage(json is null ? HttpStatusCode.NotFound : HttpStatusCode.OK)
        {
            Content = new StringContent(json ?? "{}", Encoding.UTF8, "application/json"),
        };
        response.Headers.Add("x-ms-activity-id", Guid.NewGuid().ToString());
        response.Headers.ETag = new EntityTagHeaderValue("\"1\"");
        return response;
    }
}

/// <summary>One batch POST as the SDK sent it.</summary>
internal sealed record CapturedBatch(string Path, IReadOnlyDictionary<string, string> Headers, byte[] Body)
{
    public string? Header(string name) => Headers.TryGetValue(name, out var value) ? value : null;
}
