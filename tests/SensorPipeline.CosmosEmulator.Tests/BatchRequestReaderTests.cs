using System.Buffers.Binary;
using Microsoft.Azure.Cosmos;
using SensorPipeline.CosmosEmulator.Batch;

namespace SensorPipeline.CosmosEmulator.Tests;

/// <summary>The request reader against bodies the real .NET SDK (3.64, Gateway mode) writes.</summary>
[Trait("Category", "Fast")]
public sealed class BatchRequestReaderTests
{
    private static readonly string TtlProperty = "x-ms-time-to-live-in-seconds";

    [Fact]
    public async Task Read_TransactionalBatchOfEveryKind_GivesEachFieldTheSdkWrote()
    {
        var captured = await CaptureAsync(bulk: false, async client =>
        {
            var container = client.GetContainer("db", "c");
            await container.CreateTransactionalBatch(new PartitionKey("dev-1"))
                .CreateItem(new { id = "a", pk = "dev-1", v = 1 })
                .UpsertItem(new { id = "b", pk = "dev-1" }, new TransactionalBatchItemRequestOptions { IfMatchEtag = "\"e1\"" })
                .ReadItem("c")
                .ReplaceItem("d", new { id = "d", pk = "dev-1" }, new TransactionalBatchItemRequestOptions
                {
                    IfNoneMatchEtag = "*",
                    EnableContentResponseOnWrite = false,
                    IndexingDirective = IndexingDirective.Exclude,
                    Properties = new Dictionary<string, object> { [TtlProperty] = "90" },
                })
                .DeleteItem("e")
                .PatchItem(
                    "f",
                    [PatchOperation.Set("/x", 5), PatchOperation.Increment("/n", 1)],
                    new TransactionalBatchPatchItemRequestOptions { FilterPredicate = "FROM c WHERE c.n < 3" })
                .ExecuteAsync();
        });

        Assert.Equal("True", captured.Header("x-ms-cosmos-is-batch-request"));
        Assert.Equal("True", captured.Header("x-ms-cosmos-batch-atomic"));
        Assert.Equal("[\"dev-1\"]", captured.Header("x-ms-documentdb-partitionkey"));

        var ops = BatchRequestReader.Read(captured.Body);

        Assert.Equal(
            [BatchOperationKind.Create, BatchOperationKind.Upsert, BatchOperationKind.Read, BatchOperationKind.Replace,
             BatchOperationKind.Delete, BatchOperationKind.Patch],
            ops.Select(o => o.Kind));
        Assert.Equal([0, 1, 2, 3, 4, 5], ops.Select(o => o.Index));
        Assert.All(ops, o => Assert.Null(o.PartitionKeyJson));
        Assert.Equal([null, null, "c", "d", "e", "f"], ops.Select(o => o.Id));

        Assert.Equal("""{"id":"a","pk":"dev-1","v":1}""", Utf8(ops[0].ResourceBody));
        Assert.Null(ops[0].IfMatch);
        Assert.False(ops[0].MinimalReturnPreference);

        Assert.Equal("\"e1\"", ops[1].IfMatch);
        Assert.Null(ops[1].IfNoneMatch);

        Assert.True(ops[2].ResourceBody.IsEmpty);

        Assert.Equal("""{"id":"d","pk":"dev-1"}""", Utf8(ops[3].ResourceBody));
        Assert.Equal("*", ops[3].IfNoneMatch);
        Assert.Equal("Exclude", ops[3].IndexingDirective);
        Assert.Equal(90, ops[3].TimeToLiveSeconds);
        Assert.True(ops[3].MinimalReturnPreference);

        Assert.True(ops[4].ResourceBody.IsEmpty);
        Assert.Null(ops[4].TimeToLiveSeconds);

        Assert.Equal(
            """{"condition":"FROM c WHERE c.n < 3","operations":[{"op":"set","path":"/x","value":5},{"op":"incr","path":"/n","value":1}]}""",
            Utf8(ops[5].ResourceBody));
    }

    [Fact]
    public async Task Read_BulkRequest_CarriesEachOperationsPartitionKeyAndIsNotAtomic()
    {
        var captured = await CaptureAsync(bulk: true, async client =>
        {
            var container = client.GetContainer("db", "c");
            await Task.WhenAll(Enumerable.Range(0, 3).Select(i =>
                container.UpsertItemAsync(new { id = "x" + i, pk = "dev-" + i }, new PartitionKey("dev-" + i))));
        });

        Assert.Equal("True", captured.Header("x-ms-cosmos-is-batch-request"));
        Assert.Equal("False", captured.Header("x-ms-cosmos-batch-atomic"));
        Assert.Equal("True", captured.Header("x-ms-cosmos-batch-continue-on-error"));
        Assert.Equal("0", captured.Header("x-ms-documentdb-partitionkeyrangeid"));

        var ops = BatchRequestReader.Read(captured.Body);

        Assert.Equal(3, ops.Count);
        Assert.All(ops, o => Assert.Equal(BatchOperationKind.Upsert, o.Kind));
        Assert.Equal(
            ["[\"dev-0\"]", "[\"dev-1\"]", "[\"dev-2\"]"],
            ops.Select(o => o.PartitionKeyJson).Order(StringComparer.Ordinal));
        Assert.All(ops, o => Assert.Contains($"\"pk\":{o.PartitionKeyJson![1..^1]}", Utf8(o.ResourceBody), StringComparison.Ordinal));
    }

    [Fact]
    public async Task Read_TruncatedAnywhere_IsAFormatErrorNotACrash()
    {
        var body = await CaptureSingleUpsertAsync();
        for (var length = 0; length < body.Length; length++)
        {
            var e = Assert.Throws<BatchFormatException>(() => BatchRequestReader.Read(body.AsMemory(0, length)));
            Assert.Equal(400, e.StatusCode);
        }
    }

    [Fact]
    public async Task Read_FlippedByteInARecord_IsRejectedByTheCrc()
    {
        var body = await CaptureSingleUpsertAsync();
        body[^3] ^= 0x20;

        var e = Assert.Throws<BatchFormatException>(() => BatchRequestReader.Read(body));

        Assert.Contains("CRC", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Read_AnyByteOfARowChanged_EitherParsesOrIsAFormatError()
    {
        // The CRC would catch every change; resealing it makes the row parser itself face each corrupt byte.
        var captured = await CaptureAsync(bulk: true, client =>
            client.GetContainer("db", "c").ReplaceItemAsync(
                new { id = "r", pk = "p" }, "r", new PartitionKey("p"), new ItemRequestOptions { IfMatchEtag = "\"7\"" }));
        var original = captured.Body;
        var recordOffset = RecordIoFraming.MinimalSegmentSize;
        var rowStart = recordOffset + RecordIoFraming.RecordHeaderSize;
        var outcomes = 0;
        foreach (var replacement in new byte[] { 0x00, 0x7F, 0x80, 0xFF })
        {
            for (var i = rowStart; i < original.Length; i++)
            {
                var body = (byte[])original.Clone();
                body[i] = replacement;
                Reseal(body, recordOffset);
                try
                {
                    Assert.Single(BatchRequestReader.Read(body));
                }
                catch (BatchFormatException e)
                {
                    Assert.Equal(400, e.StatusCode);
                }

                outcomes++;
            }
        }

        Assert.Equal(4 * (original.Length - rowStart), outcomes);
    }

    [Fact]
    public async Task Read_UnknownOperationType_NamesTheOperationAndType()
    {
        var body = await CaptureSingleUpsertAsync();
        var row = RecordIoFraming.MinimalSegmentSize + RecordIoFraming.RecordHeaderSize;
        BinaryPrimitives.WriteInt32LittleEndian(body.AsSpan(row + 6), 40);
        Reseal(body, RecordIoFraming.MinimalSegmentSize);

        var e = Assert.Throws<BatchFormatException>(() => BatchRequestReader.Read(body));

        Assert.Equal("Operation 0: operation type 40 is not a batch item operation.", e.Message);
    }

    [Fact]
    public async Task Read_MoreThanOneHundredOperations_IsRefused()
    {
        var body = await CaptureSingleUpsertAsync();
        var segment = body[..RecordIoFraming.MinimalSegmentSize];
        var record = body[RecordIoFraming.MinimalSegmentSize..];
        byte[] hundred = [.. segment, .. Enumerable.Repeat(record, 100).SelectMany(r => r)];
        byte[] hundredAndOne = [.. hundred, .. record];

        Assert.Equal(100, BatchRequestReader.Read(hundred).Count);
        var e = Assert.Throws<BatchFormatException>(() => BatchRequestReader.Read(hundredAndOne));
        Assert.Equal(400, e.StatusCode);
    }

    [Fact]
    public void Read_BodyOverTwoMegabytes_IsRequestEntityTooLarge()
    {
        var e = Assert.Throws<BatchFormatException>(() => BatchRequestReader.Read(new byte[BatchLimits.MaxBodyBytes + 1]));

        Assert.Equal(413, e.StatusCode);
    }

    [Fact]
    public void Read_JsonInsteadOfHybridRow_IsAFormatError()
    {
        var e = Assert.Throws<BatchFormatException>(() => BatchRequestReader.Read(Encoding.UTF8.GetBytes("""[{"id":"a"}]""")));

        Assert.Equal(400, e.StatusCode);
    }

    internal static async Task<CapturedBatch> CaptureAsync(bool bulk, Func<CosmosClient, Task> act)
    {
        using var gateway = new BatchSdkGateway(_ => new HttpResponseMessage(HttpStatusCode.BadRequest)
        {
            Content = new StringContent("""{"code":"BadRequest","message":"captured"}"""),
        });
        using var client = gateway.CreateClient(bulk);
        try
        {
            await act(client);
        }
        catch (CosmosException e) when (e.StatusCode == HttpStatusCode.BadRequest)
        {
            // The capture answers 400 on purpose; the request is what the test reads.
        }

        return Assert.Single(gateway.Batches);
    }

    private static async Task<byte[]> CaptureSingleUpsertAsync()
    {
        var captured = await CaptureAsync(bulk: false, client =>
            client.GetContainer("db", "c").CreateTransactionalBatch(new PartitionKey("p"))
                .UpsertItem(new { id = "only", pk = "p" }).ExecuteAsync());
        return captured.Body;
    }

    /// <summary>Recomputes the CRC of the record whose header starts at <paramref name="recordOffset"/>.</summary>
    private static void Reseal(byte[] body, int recordOffset)
    {
        var length = BinaryPrimitives.ReadInt32LittleEndian(body.AsSpan(recordOffset + 5));
        var crc = RecordIoCrc32.Compute(body.AsSpan(recordOffset + RecordIoFraming.RecordHeaderSize, length));
        BinaryPrimitives.WriteUInt32LittleEndian(body.AsSpan(recordOffset + 9), crc);
    }

    private static string Utf8(ReadOnlyMemory<byte> bytes) => Encoding.UTF8.GetString(bytes.Span);
}
