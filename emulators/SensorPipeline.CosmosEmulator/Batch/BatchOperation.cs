namespace SensorPipeline.CosmosEmulator.Batch;

/// <summary>The item operations a batch request can carry (the SDK's OperationType values on the wire).</summary>
public enum BatchOperationKind
{
    Create = 0,
    Patch = 1,
    Read = 2,
    Delete = 4,
    Replace = 5,
    Upsert = 20,
}

/// <summary>
/// One operation of a batch request, as the SDK wrote it. The byte fields are slices of the request body, valid as
/// long as the caller keeps that buffer.
/// </summary>
/// <param name="Index">Position in the request; results are answered in this order.</param>
/// <param name="Kind">What to do.</param>
/// <param name="Id">The item id for Read/Replace/Delete/Patch; null for Create/Upsert (the id is in the body).</param>
/// <param name="PartitionKeyJson">
/// The partition key as JSON (e.g. <c>["dev-1"]</c>) for bulk operations; null in a TransactionalBatch, whose
/// operations all use the request's <c>x-ms-documentdb-partitionkey</c> header.
/// </param>
/// <param name="ResourceBody">
/// The document JSON for Create/Upsert/Replace; for Patch the patch specification
/// <c>{"condition": "FROM c WHERE …", "operations": [{"op": "set", "path": "/x", "value": 5}, …]}</c>.
/// </param>
/// <param name="IfMatch">If-Match ETag precondition (412 when it does not match).</param>
/// <param name="IfNoneMatch">If-None-Match ETag precondition (<c>*</c> or an ETag).</param>
/// <param name="IndexingDirective">"Default", "Include" or "Exclude", when the client set one.</param>
/// <param name="TimeToLiveSeconds">Per-operation TTL override the client passed as a request property.</param>
/// <param name="MinimalReturnPreference">The client asked not to get the resource back (content response off).</param>
/// <param name="EffectivePartitionKey">Binary effective partition key, when the client routed by it.</param>
/// <param name="BinaryId">Binary item id, when the client sent one.</param>
public sealed record BatchOperation(
    int Index,
    BatchOperationKind Kind,
    string? Id,
    string? PartitionKeyJson,
    ReadOnlyMemory<byte> ResourceBody,
    string? IfMatch,
    string? IfNoneMatch,
    string? IndexingDirective,
    int? TimeToLiveSeconds,
    bool MinimalReturnPreference,
    ReadOnlyMemory<byte> EffectivePartitionKey,
    ReadOnlyMemory<byte> BinaryId)
{
    /// <summary>True for the operations that change the store.</summary>
    public bool IsWrite => Kind != BatchOperationKind.Read;
}
