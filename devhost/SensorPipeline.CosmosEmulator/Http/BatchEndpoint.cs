using System.Buffers;
using System.Text.Json;
using SensorPipeline.CosmosEmulator.Batch;
using SensorPipeline.CosmosEmulator.Store;
using SensorPipeline.CosmosEmulator.Throttling;

namespace SensorPipeline.CosmosEmulator.Http;

/// <summary>
/// <c>POST …/docs</c> with <c>x-ms-cosmos-is-batch-request: True</c>: a TransactionalBatch (atomic, one partition
/// key from the header) or a bulk request (each operation on its own, with its own partition key). Reads the
/// HybridRow body, runs the operations on the store and answers one HybridRow result per operation
/// (Batch/README.md has the wire format and the rules).
/// </summary>
internal static class BatchEndpoint
{
    /// <summary>What a refused operation costs (an estimate: the service charges about a point read for a miss).</summary>
    private const double RefusalCharge = 1.0;

    public static async Task HandleAsync(HttpContext context, EmulatorStore store, ContainerState container,
        Func<string, Func<ReadOnlyMemory<byte>, bool>> compilePredicate)
    {
        ArgumentNullException.ThrowIfNull(context);
        byte[]? buffer = null;
        try
        {
            IReadOnlyList<BatchOperation> operations;
            try
            {
                (buffer, var length) = await ReadBodyAsync(context);
                operations = BatchRequestReader.Read(buffer.AsMemory(0, length));
            }
            catch (BatchFormatException e)
            {
                await GatewayResponse.ErrorAsync(context, e.StatusCode, e.StatusCode == 413 ? "RequestEntityTooLarge" : "BadRequest", e.Message);
                return;
            }

            var atomic = string.Equals(context.Request.Headers[CosmosHeaders.BatchAtomic].ToString(), "true", StringComparison.OrdinalIgnoreCase);
            var results = atomic
                ? await AtomicAsync(context, store, container, operations, compilePredicate)
                : await BulkAsync(context, store, container, operations, compilePredicate);

            var charge = 0.0;
            foreach (var result in results)
            {
                charge += result.RequestCharge;
            }

            context.Response.StatusCode = BatchOutcome.HttpStatus(results);
            GatewayResponse.SetCommonHeaders(context, charge);
            BatchResponseWriter.Write(context.Response.BodyWriter, results);
            await context.Response.BodyWriter.FlushAsync(context.RequestAborted);
        }
        finally
        {
            if (buffer is not null)
            {
                ArrayPool<byte>.Shared.Return(buffer);
            }
        }
    }

    private static async Task<BatchOperationResult[]> AtomicAsync(HttpContext context, EmulatorStore store, ContainerState container,
        IReadOnlyList<BatchOperation> operations, Func<string, Func<ReadOnlyMemory<byte>, bool>> compilePredicate)
    {
        var header = context.Request.Headers[CosmosHeaders.PartitionKey].ToString();
        var key = (header.Length == 0 ? null : PartitionKeys.FromHeader(header))
            ?? throw new StoreException(400, "BadRequest",
                $"A transactional batch needs its partition key as a JSON array in {CosmosHeaders.PartitionKey}.", 1001);

        var outcome = await store.ExecuteAtomicAsync(container, key, operations, compilePredicate);
        if (!outcome.Committed)
        {
            var failure = Refused(outcome.Failure!);
            container.Budget.Charge(failure.RequestCharge);
            return BatchOutcome.AbortedAtomic(operations.Count, outcome.FailedIndex, failure);
        }

        var results = new BatchOperationResult[operations.Count];
        var charge = 0.0;
        for (var i = 0; i < results.Length; i++)
        {
            results[i] = Succeeded(operations[i], outcome.Steps[i].Status, outcome.Steps[i].Document);
            charge += results[i].RequestCharge;
            if (operations[i].IsWrite)
            {
                GatewayResponse.Written();
            }
        }

        container.Budget.Charge(charge);
        return results;
    }

    /// <summary>
    /// Each operation alone, as the single-document endpoints run it. They start in request order without waiting
    /// for each other: the store applies an operation in memory before its first await, so the order holds, and their
    /// log writes share flushes. Each is admitted by the container's RU budget after the one before it was charged
    /// an estimate, so a budget that runs out part-way answers the rest 429 with the time to wait, as the service
    /// does, and the SDK resends just those.
    /// </summary>
    private static async Task<BatchOperationResult[]> BulkAsync(HttpContext context, EmulatorStore store, ContainerState container,
        IReadOnlyList<BatchOperation> operations, Func<string, Func<ReadOnlyMemory<byte>, bool>> compilePredicate)
    {
        var requestKey = context.Request.Headers[CosmosHeaders.PartitionKey].ToString();
        var running = new Task<BatchOperationResult>[operations.Count];
        var deferred = 0.0;
        for (var i = 0; i < running.Length; i++)
        {
            var estimate = operations[i].IsWrite ? RequestCharge.Write(operations[i].ResourceBody.Length) : RefusalCharge;
            if (i > 0 && !container.Budget.TryAdmit(out var retryAfterMs))
            {
                // Each throttled operation waits until the budget has refilled for it and the ones throttled before
                // it, so the SDK's retries arrive spread out instead of all at once into an empty bucket.
                deferred += estimate;
                var wait = retryAfterMs + Math.Ceiling(deferred / container.Budget.RequestUnitsPerSecond * 1000);
                running[i] = Task.FromResult(new BatchOperationResult(429, 3200, RequestCharge: 0,
                    RetryAfterMilliseconds: (uint)Math.Min(wait, 60_000)));
                continue;
            }

            container.Budget.Charge(estimate);
            running[i] = RunAsync(store, container, operations[i], operations[i].PartitionKeyJson ?? requestKey, estimate, compilePredicate);
        }

        return await Task.WhenAll(running);
    }

    private static async Task<BatchOperationResult> RunAsync(EmulatorStore store, ContainerState container, BatchOperation operation,
        string partitionKeyJson, double charged, Func<string, Func<ReadOnlyMemory<byte>, bool>> compilePredicate)
    {
        BatchOperationResult result;
        try
        {
            var key = (partitionKeyJson.Length == 0 ? null : PartitionKeys.FromHeader(partitionKeyJson))
                ?? throw new StoreException(400, "BadRequest", $"Operation {operation.Index} has no partition key JSON array.", 1001);
            var id = operation.Id!;
            result = operation.Kind switch
            {
                BatchOperationKind.Read => Succeeded(operation, 200, store.Read(container, key, id)),
                BatchOperationKind.Delete => Succeeded(operation, 204, await store.DeleteAsync(container, key, id, operation.IfMatch)),
                BatchOperationKind.Patch => Succeeded(operation, 200, await PatchAsync(store, container, key, operation, compilePredicate)),
                _ => await WriteAsync(store, container, key, operation),
            };
            if (operation.IsWrite)
            {
                GatewayResponse.Written();
            }
        }
        catch (StoreException e)
        {
            result = Refused(e);
        }

        container.Budget.Charge(result.RequestCharge - charged);
        return result;
    }

    private static async Task<BatchOperationResult> WriteAsync(EmulatorStore store, ContainerState container, string key, BatchOperation operation)
    {
        var kind = operation.Kind switch
        {
            BatchOperationKind.Create => WriteKind.Create,
            BatchOperationKind.Upsert => WriteKind.Upsert,
            _ => WriteKind.Replace,
        };
        var addressId = kind == WriteKind.Replace ? operation.Id : null;
        var (status, document) = await store.WriteAsync(container, kind, key, addressId, operation.ResourceBody, operation.IfMatch);
        return Succeeded(operation, status, document);
    }

    private static Task<StoredDocument> PatchAsync(EmulatorStore store, ContainerState container, string key, BatchOperation operation,
        Func<string, Func<ReadOnlyMemory<byte>, bool>> compilePredicate)
    {
        var (patches, condition) = PatchApplier.ParseRequest(operation.ResourceBody);
        var predicate = condition is null ? null : compilePredicate(condition);
        return store.PatchAsync(container, key, operation.Id!, patches, predicate, operation.IfMatch);
    }

    /// <summary>A successful operation's result: the document and ETag (none for a delete, no body when the client
    /// asked for a minimal return), charged by the document's size as the single-document endpoints charge.</summary>
    private static BatchOperationResult Succeeded(BatchOperation operation, int status, StoredDocument document) => operation.Kind switch
    {
        BatchOperationKind.Read => new(status, ETag: document.ETag, ResourceBody: document.Json, RequestCharge: RequestCharge.PointRead(document.Json.Length)),
        BatchOperationKind.Delete => new(status, RequestCharge: RequestCharge.Write(document.Json.Length)),
        _ => new(status, ETag: document.ETag, ResourceBody: operation.MinimalReturnPreference ? default : document.Json,
            RequestCharge: RequestCharge.Write(document.Json.Length)),
    };

    /// <summary>A refused operation: its status and sub-status, and the service's error body as its resource.</summary>
    private static BatchOperationResult Refused(StoreException error) =>
        new(error.Status, error.SubStatus, ResourceBody: JsonSerializer.SerializeToUtf8Bytes(new ErrorBody(error.Code, error.Message), GatewayJson.Default.ErrorBody),
            RequestCharge: RefusalCharge);

    /// <summary>The body into a pooled buffer, refusing more than <see cref="BatchLimits.MaxBodyBytes"/> before buffering it.</summary>
    private static async Task<(byte[] Buffer, int Length)> ReadBodyAsync(HttpContext context)
    {
        var reader = context.Request.BodyReader;
        while (true)
        {
            var read = await reader.ReadAsync(context.RequestAborted);
            if (read.Buffer.Length > BatchLimits.MaxBodyBytes)
            {
                reader.AdvanceTo(read.Buffer.End);
                throw new BatchFormatException($"The batch request body exceeds {BatchLimits.MaxBodyBytes} bytes.", 413);
            }

            if (read.IsCompleted)
            {
                var length = (int)read.Buffer.Length;
                var buffer = ArrayPool<byte>.Shared.Rent(Math.Max(length, 1));
                read.Buffer.CopyTo(buffer);
                reader.AdvanceTo(read.Buffer.End);
                return (buffer, length);
            }

            reader.AdvanceTo(read.Buffer.Start, read.Buffer.End);
        }
    }
}
