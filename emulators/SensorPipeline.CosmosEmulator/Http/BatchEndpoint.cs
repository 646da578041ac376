using System.Buffers;
using SensorPipeline.CosmosEmulator.Batch;
using SensorPipeline.CosmosEmulator.Queries;
using SensorPipeline.CosmosEmulator.Documents;
using SensorPipeline.CosmosEmulator.Charging;
using SensorPipeline.CosmosEmulator.Throttling;

namespace SensorPipeline.CosmosEmulator.Http;

/// <summary>TransactionalBatch (<c>x-ms-cosmos-batch-atomic: True</c>, one partition key in the header) and bulk
/// requests (each operation with its own key, run independently): HybridRow in, HybridRow out (see Batch/README.md).</summary>
internal sealed class BatchEndpoint(EmulatorStore store, FaultInjector faults)
{
    public async Task BatchAsync(HttpContext context, ContainerState container)
    {
        IReadOnlyList<BatchOperation> operations;
        try
        {
            operations = BatchRequestReader.Read(await GatewayRequest.ReadBodyAsync(context));
        }
        catch (BatchFormatException e)
        {
            await GatewayResponse.ErrorAsync(context, e.StatusCode, e.StatusCode == 413 ? "RequestEntityTooLarge" : "BadRequest", e.Message);
            return;
        }

        var request = context.Request;
        IReadOnlyList<BatchOperationResult> results;
        if (GatewayRequest.IsTrue(request.Headers[CosmosHeaders.BatchAtomic]))
        {
            var key = GatewayRequest.HeaderKey(request) ?? GatewayRequest.RequiredKey(container);
            PartitionKeyRangesEndpoint.AddressedRange(request, container, key);
            results = await store.Documents.ExecuteAtomicAsync(container, key, operations, QueryRunner.Predicate);
        }
        else
        {
            results = await ExecuteEachAsync(container, operations, GatewayRequest.HeaderKey(request), PartitionKeyRangesEndpoint.AddressedRange(request, container, null));
            container.Ledger.AddBulkRequest(operations.Count);
        }

        double charge = 0;
        var writes = false;
        foreach (var (operation, result) in operations.Zip(results))
        {
            charge += result.RequestCharge;
            writes |= operation.IsWrite && result.IsSuccess;
            if (result.RequestCharge > 0)
            {
                container.Ledger.Add(ChargedOf(operation.Kind, result), result.RequestCharge);
            }
        }

        container.Budget.Charge(charge);
        if (writes)
        {
            GatewayResponse.Written();
        }

        var buffer = new ArrayBufferWriter<byte>(4096);
        BatchResponseWriter.Write(buffer, results);
        await GatewayResponse.JsonAsync(context, BatchOutcome.HttpStatus(results), buffer.WrittenMemory, charge);
    }

    /// <summary>Bulk: every operation on its own. They start in request order (each takes its container lock in
    /// turn) and their log writes share group commits, so a bulk request costs about one fsync, not one per item.</summary>
    private async Task<IReadOnlyList<BatchOperationResult>> ExecuteEachAsync(ContainerState container, IReadOnlyList<BatchOperation> operations, string? headerKey,
        int? range)
    {
        var pending = new Task<BatchOperationResult>[operations.Count];
        for (var i = 0; i < operations.Count; i++)
        {
            var operation = operations[i];
            if (!container.Budget.TryAdmit(out var retryAfterMs))
            {
                pending[i] = Task.FromResult(BatchStaging.Failure(
                    new StoreException(429, "TooManyRequests", "Request rate is large.", 3200), (uint)retryAfterMs));
                continue;
            }

            pending[i] = ExecuteOneAsync(container, operation, headerKey, range);
        }

        return await Task.WhenAll(pending);
    }

    private async Task<BatchOperationResult> ExecuteOneAsync(ContainerState container, BatchOperation operation, string? headerKey, int? range)
    {
        try
        {
            var key = operation.PartitionKeyJson is { } json
                ? PartitionKeys.FromHeader(json) ?? throw new StoreException(400, "BadRequest", $"The operation's partition key '{json}' is not a JSON array.")
                : headerKey;
            if (range is { } addressed)
            {
                // Bulk sends one request per range: every operation's key must hash into it, as the SDK placed it.
                PartitionKeyRangesEndpoint.CheckInRange(container, key, addressed);
            }

            var ifMatch = operation.IfMatch is { Length: > 0 } etag && etag != "*" ? etag : null;
            switch (operation.Kind)
            {
                case BatchOperationKind.Create or BatchOperationKind.Upsert or BatchOperationKind.Replace:
                    if (GatewayFaults.DocumentFault(faults, operation.ResourceBody.Span) is { } fault)
                    {
                        return BatchStaging.Failure(fault.Error, fault.Error.Status == 429 ? (uint)fault.RetryAfterMs : null);
                    }

                    var kind = operation.Kind switch { BatchOperationKind.Create => WriteKind.Create, BatchOperationKind.Upsert => WriteKind.Upsert, _ => WriteKind.Replace };
                    var (status, written, previous) = await store.Documents.WriteAsync(container, kind, key, operation.Kind == BatchOperationKind.Replace ? operation.Id : null,
                        operation.ResourceBody, ifMatch);
                    return Result(container, status, written, previous, operation.MinimalReturnPreference);
                case BatchOperationKind.Read:
                    var read = store.Documents.Read(container, key ?? GatewayRequest.RequiredKey(container), operation.Id ?? "");
                    return new BatchOperationResult(200, 0, read.ETag, read.Json, RequestCharge.PointRead(read.Json.Length));
                case BatchOperationKind.Delete:
                    var deleted = await store.Documents.DeleteAsync(container, key ?? GatewayRequest.RequiredKey(container), operation.Id ?? "", ifMatch);
                    return new BatchOperationResult(204, 0, RequestCharge: container.DeleteCharge(deleted));
                case BatchOperationKind.Patch:
                    var (patches, condition) = PatchApplier.ParseRequest(operation.ResourceBody);
                    var (patched, before) = await store.Documents.PatchAsync(container, key ?? GatewayRequest.RequiredKey(container), operation.Id ?? "", patches,
                        condition is null ? null : QueryRunner.Predicate(condition), ifMatch);
                    return Result(container, 200, patched, before, operation.MinimalReturnPreference, patch: true);
                default:
                    throw new StoreException(400, "BadRequest", $"Batch operation {operation.Kind} is not supported.");
            }
        }
        catch (StoreException e)
        {
            return BatchStaging.Failure(e);
        }
    }

    private static BatchOperationResult Result(ContainerState container, int status, StoredDocument document, StoredDocument? previous, bool minimal,
        bool patch = false) =>
        new(status, 0, document.ETag, minimal ? default : document.Json, container.WriteCharge(document, previous, patch).RequestUnits);

    /// <summary>What an operation's charge is totalled under: its kind and outcome (201 a create, 200 a replace).</summary>
    private static ChargedOperation ChargedOf(BatchOperationKind kind, BatchOperationResult result) => (kind, result.StatusCode) switch
    {
        (_, 409 or 412) => ChargedOperation.Refused,
        (BatchOperationKind.Read, _) => ChargedOperation.Read,
        (BatchOperationKind.Delete, _) => ChargedOperation.Delete,
        (BatchOperationKind.Patch, _) => ChargedOperation.Patch,
        (_, 201) => ChargedOperation.Create,
        _ => ChargedOperation.Replace,
    };
}
