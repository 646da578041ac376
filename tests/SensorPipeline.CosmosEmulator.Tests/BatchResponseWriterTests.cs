using System.Buffers;
using Microsoft.Azure.Cosmos;
using Newtonsoft.Json.Linq;
using SensorPipeline.CosmosEmulator.Batch;

namespace SensorPipeline.CosmosEmulator.Tests;

/// <summary>The response writer, read back by the real .NET SDK (3.64, Gateway mode) as TransactionalBatch and bulk results.</summary>
[Trait("Category", "Fast")]
public sealed class BatchResponseWriterTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(60);

    [Fact]
    public async Task TransactionalBatch_AllSucceed_SdkSeesEachStatusETagAndBody()
    {
        // A body over 127 bytes takes a two-byte length prefix; a non-ASCII ETag checks the UTF-8 length.
        string bigValue = new('x', 300);
        using var gateway = new BatchSdkGateway(batch =>
        {
            var ops = BatchRequestReader.Read(batch.Body);
            BatchOperationResult[] results =
            [
                new(201, ETag: "\"etag-a\"", ResourceBody: ops[0].ResourceBody, RequestCharge: 6.19),
                new(200, ETag: "\"é-b\"", ResourceBody: Encoding.UTF8.GetBytes($$"""{"id":"b","pk":"dev-1","big":"{{bigValue}}"}"""), RequestCharge: 1),
                new(204, RequestCharge: 5.5),
            ];
            return BatchSdkGateway.HybridRowResponse(HttpStatusCode.OK, Write(results), charge: 12.69);
        });
        using var client = gateway.CreateClient(bulk: false);

        using var response = await client.GetContainer("db", "c")
            .CreateTransactionalBatch(new PartitionKey("dev-1"))
            .CreateItem(new { id = "a", pk = "dev-1", v = 7 })
            .ReadItem("b")
            .DeleteItem("c")
            .ExecuteAsync().WaitAsync(Patience);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.True(response.IsSuccessStatusCode);
        Assert.Equal(3, response.Count);
        Assert.Equal([HttpStatusCode.Created, HttpStatusCode.OK, HttpStatusCode.NoContent], response.Select(r => r.StatusCode));
        Assert.Equal(["\"etag-a\"", "\"é-b\"", null], response.Select(r => r.ETag));
        Assert.Equal(12.69, response.RequestCharge);

        var created = response.GetOperationResultAtIndex<JObject>(0).Resource;
        Assert.Equal(7, (int)created["v"]!);
        var read = response.GetOperationResultAtIndex<JObject>(1).Resource;
        Assert.Equal(bigValue, (string)read["big"]!);
        Assert.Null(response[2].ResourceStream);
    }

    [Fact]
    public async Task TransactionalBatch_OneOperationFails_SdkReportsItsStatusAndFailedDependencyForTheRest()
    {
        using var gateway = new BatchSdkGateway(batch =>
        {
            var count = BatchRequestReader.Read(batch.Body).Count;
            var results = BatchOutcome.AbortedAtomic(
                count, failedIndex: 1, new BatchOperationResult(409, RequestCharge: 1.24));
            return BatchSdkGateway.HybridRowResponse((HttpStatusCode)BatchOutcome.HttpStatus(results), Write(results));
        });
        using var client = gateway.CreateClient(bulk: false);

        using var response = await client.GetContainer("db", "c")
            .CreateTransactionalBatch(new PartitionKey("dev-1"))
            .UpsertItem(new { id = "a", pk = "dev-1" })
            .CreateItem(new { id = "exists", pk = "dev-1" })
            .UpsertItem(new { id = "c", pk = "dev-1" })
            .ExecuteAsync().WaitAsync(Patience);

        Assert.False(response.IsSuccessStatusCode);
        Assert.Equal(HttpStatusCode.Conflict, response.StatusCode);
        Assert.Equal(
            [(HttpStatusCode)BatchOutcome.FailedDependency, HttpStatusCode.Conflict, (HttpStatusCode)BatchOutcome.FailedDependency],
            response.Select(r => r.StatusCode));
    }

    [Fact]
    public async Task Bulk_ThrottledOperation_IsRetriedAfterTheGivenDelayAndThenSucceeds()
    {
        var requests = 0;
        using var gateway = new BatchSdkGateway(batch =>
        {
            var first = Interlocked.Increment(ref requests) == 1;
            var ops = BatchRequestReader.Read(batch.Body);
            var results = ops
                .Select(op => first && op.PartitionKeyJson == "[\"dev-1\"]"
                    ? new BatchOperationResult(429, SubStatusCode: 3200, RetryAfterMilliseconds: 20)
                    : new BatchOperationResult(201, ETag: $"\"{op.PartitionKeyJson!.Length}-{op.Index}\"", ResourceBody: op.ResourceBody, RequestCharge: 7.5))
                .ToArray();
            return BatchSdkGateway.HybridRowResponse((HttpStatusCode)BatchOutcome.HttpStatus(results), Write(results));
        });
        using var client = gateway.CreateClient(bulk: true);
        var container = client.GetContainer("db", "c");

        var responses = await Task.WhenAll(Enumerable.Range(0, 3).Select(i =>
            container.CreateItemAsync(JObject.FromObject(new { id = "x" + i, pk = "dev-" + i }), new PartitionKey("dev-" + i))))
            .WaitAsync(Patience);

        Assert.All(responses, r => Assert.Equal(HttpStatusCode.Created, r.StatusCode));
        Assert.All(responses, r => Assert.Equal(7.5, r.RequestCharge));
        Assert.Equal(["x0", "x1", "x2"], responses.Select(r => (string)r.Resource["id"]!));
        Assert.All(responses, r => Assert.StartsWith("\"9-", r.ETag, StringComparison.Ordinal));

        // The throttled operation went out again, alone, in a later request.
        CapturedBatch[] batches = [.. gateway.Batches];
        Assert.True(batches.Length >= 2, $"expected a retry request, saw {batches.Length}");
        Assert.Contains(batches.Skip(1), b => BatchRequestReader.Read(b.Body).Any(op => op.PartitionKeyJson == "[\"dev-1\"]"));
    }

    [Fact]
    public async Task Bulk_ConflictOnOneOperation_FailsOnlyThatItem()
    {
        using var gateway = new BatchSdkGateway(batch =>
        {
            var results = BatchRequestReader.Read(batch.Body)
                .Select(op => op.PartitionKeyJson == "[\"dev-0\"]"
                    ? new BatchOperationResult(409, ResourceBody: Encoding.UTF8.GetBytes("""{"code":"Conflict","message":"exists"}"""))
                    : new BatchOperationResult(201, ETag: "\"ok\"", ResourceBody: op.ResourceBody))
                .ToArray();
            return BatchSdkGateway.HybridRowResponse((HttpStatusCode)BatchOutcome.HttpStatus(results), Write(results));
        });
        using var client = gateway.CreateClient(bulk: true);
        var container = client.GetContainer("db", "c");

        Task<ItemResponse<JObject>>[] calls = [.. Enumerable.Range(0, 2).Select(i =>
            container.CreateItemAsync(JObject.FromObject(new { id = "y" + i, pk = "dev-" + i }), new PartitionKey("dev-" + i)))];

        var conflict = await Assert.ThrowsAsync<CosmosException>(() => calls[0].WaitAsync(Patience));
        Assert.Equal(HttpStatusCode.Conflict, conflict.StatusCode);
        var created = await calls[1].WaitAsync(Patience);
        Assert.Equal(HttpStatusCode.Created, created.StatusCode);
        Assert.Equal("\"ok\"", created.ETag);
    }

    [Fact]
    public void Write_StartsWithTheSegmentTheSdkWrites_AndEveryRecordVerifies()
    {
        var body = Write([new(201, ETag: "\"1\""), new(429, RetryAfterMilliseconds: 1000)]);

        Assert.Equal(Convert.FromHexString("81F0D8FF7F010A000000"), body[..RecordIoFraming.MinimalSegmentSize]);
        var offset = 0;
        var records = 0;
        var segmentSeen = false;
        while (RecordIoFraming.TryReadRecord(body, ref offset, ref segmentSeen, out _))
        {
            records++;
        }

        Assert.Equal(2, records);
    }

    [Fact]
    public void AbortedAtomic_SuccessGivenAsTheFailure_Throws()
    {
        Assert.Throws<ArgumentException>(() => BatchOutcome.AbortedAtomic(2, 0, new BatchOperationResult(200)));
        Assert.Throws<ArgumentOutOfRangeException>(() => BatchOutcome.AbortedAtomic(2, 2, new BatchOperationResult(409)));
    }

    private static byte[] Write(IReadOnlyList<BatchOperationResult> results)
    {
        var buffer = new ArrayBufferWriter<byte>();
        BatchResponseWriter.Write(buffer, results);
        return buffer.WrittenSpan.ToArray();
    }
}
