using System.Text.Json.Nodes;
using SensorPipeline.CosmosEmulator.Batch;
using SensorPipeline.CosmosEmulator.Log;
using SensorPipeline.CosmosEmulator.Charging;

namespace SensorPipeline.CosmosEmulator.Documents;

/// <summary>The operations of a TransactionalBatch staged one after another against one partition, each seeing the
/// ones before it (<see cref="DocumentStore.ExecuteAtomicAsync"/> holds the container's lock and writes the record),
/// and the result row of a refused operation.</summary>
internal static class BatchStaging
{
    /// <summary>The result row of a refused operation: its status, sub-status and the service's error body.</summary>
    public static BatchOperationResult Failure(StoreException error, uint? retryAfterMs = null)
    {
        ArgumentNullException.ThrowIfNull(error);
        var body = JsonSerializer.SerializeToUtf8Bytes(new JsonObject { ["code"] = error.Code, ["message"] = error.Message });
        return new BatchOperationResult(error.Status, error.SubStatus, ResourceBody: body, RequestCharge: error.RequestCharge, RetryAfterMilliseconds: retryAfterMs);
    }

    private static StoredDocument Stage(ContainerState container, string key, string id, JsonElement root, StoredDocument? existing,
        Dictionary<string, StoredDocument?> staged, List<Mutation> mutations, long now)
    {
        var (stored, mutation) = DocumentStore.NewVersion(container, key, id, root, existing, now);
        staged[id] = stored;
        mutations.Add(mutation);
        return stored;
    }

    public static BatchOperationResult Stage(ContainerState container, string key, BatchOperation operation, Dictionary<string, StoredDocument?> staged,
        List<Mutation> mutations, long now, Func<string, Func<ReadOnlyMemory<byte>, bool>> predicate) => operation.Kind switch
    {
        BatchOperationKind.Create or BatchOperationKind.Upsert or BatchOperationKind.Replace => StageWrite(container, key, operation, staged, mutations, now),
        BatchOperationKind.Read => StageRead(container, key, operation, staged, now),
        BatchOperationKind.Delete => StageDelete(container, key, operation, staged, mutations, now),
        BatchOperationKind.Patch => StagePatch(container, key, operation, staged, mutations, now, predicate),
        _ => throw new StoreException(400, "BadRequest", $"Batch operation {operation.Kind} is not supported."),
    };

    private static BatchOperationResult StageWrite(ContainerState container, string key, BatchOperation operation, Dictionary<string, StoredDocument?> staged,
        List<Mutation> mutations, long now)
    {
        using var parsed = DocumentBuilder.Parse(operation.ResourceBody);
        var root = parsed.RootElement;
        var id = root.GetProperty("id").GetString()!;
        if (operation.Kind == BatchOperationKind.Replace && operation.Id is { } addressed && addressed != id)
        {
            throw new StoreException(400, "BadRequest", $"The id in the body ('{id}') must match the operation's id ('{addressed}').");
        }

        _ = DocumentStore.KeyOf(container, root, key);
        var existing = StagedOrLatest(container, key, id, staged, now);
        if (operation.Kind == BatchOperationKind.Create && existing is not null)
        {
            throw StoreException.Conflict($"Document '{id}'.", RequestCharge.PointRead(existing.Json.Length));
        }

        if (operation.Kind == BatchOperationKind.Replace && existing is null)
        {
            throw StoreException.NotFound($"Document '{id}'.");
        }

        if (operation.Kind != BatchOperationKind.Create)
        {
            CheckIfMatch(operation, existing, id);
        }

        return Written(container, operation, existing is null ? 201 : 200, Stage(container, key, id, root, existing, staged, mutations, now), existing);
    }

    private static BatchOperationResult StageRead(ContainerState container, string key, BatchOperation operation, Dictionary<string, StoredDocument?> staged, long now)
    {
        var id = operation.Id ?? throw new StoreException(400, "BadRequest", "A read operation needs an id.");

        // A read returns what is durable (or this batch's own change), never another request's pending version.
        var existing = (staged.TryGetValue(id, out var own) ? own : container.Find(key, id, now)) ?? throw StoreException.NotFound($"Document '{id}'.");
        return operation.IfNoneMatch == existing.ETag
            ? new BatchOperationResult(304, 0, existing.ETag, RequestCharge: RequestCharge.PointRead(existing.Json.Length))
            : new BatchOperationResult(200, 0, existing.ETag, existing.Json, RequestCharge.PointRead(existing.Json.Length));
    }

    private static BatchOperationResult StageDelete(ContainerState container, string key, BatchOperation operation, Dictionary<string, StoredDocument?> staged,
        List<Mutation> mutations, long now)
    {
        var id = operation.Id ?? throw new StoreException(400, "BadRequest", "A delete operation needs an id.");
        var existing = StagedOrLatest(container, key, id, staged, now) ?? throw StoreException.NotFound($"Document '{id}'.");
        CheckIfMatch(operation, existing, id);
        staged[id] = null;
        mutations.Add(new Mutation(MutationKind.DeleteDocument, container.DatabaseId, container.Id, key, id, default, "", now, null));
        return new BatchOperationResult(204, 0, RequestCharge: container.DeleteCharge(existing));
    }

    private static BatchOperationResult StagePatch(ContainerState container, string key, BatchOperation operation, Dictionary<string, StoredDocument?> staged,
        List<Mutation> mutations, long now, Func<string, Func<ReadOnlyMemory<byte>, bool>> predicate)
    {
        var id = operation.Id ?? throw new StoreException(400, "BadRequest", "A patch operation needs an id.");
        var existing = StagedOrLatest(container, key, id, staged, now) ?? throw StoreException.NotFound($"Document '{id}'.");
        CheckIfMatch(operation, existing, id);
        var (operations, condition) = PatchApplier.ParseRequest(operation.ResourceBody);
        if (condition is not null && !predicate(condition)(existing.Json))
        {
            throw StoreException.PreconditionFailed($"The filter predicate is false for document '{id}'.", RequestCharge.PointRead(existing.Json.Length));
        }

        using var patched = DocumentStore.Patched(container, key, id, existing, operations);
        return Written(container, operation, 200, Stage(container, key, id, patched.RootElement, existing, staged, mutations, now), existing, patch: true);
    }

    private static StoredDocument? StagedOrLatest(ContainerState container, string key, string id, Dictionary<string, StoredDocument?> staged, long now) =>
        staged.TryGetValue(id, out var document) ? document : container.FindLatest(key, id, now);

    private static void CheckIfMatch(BatchOperation operation, StoredDocument? existing, string id)
    {
        if (operation.IfMatch is { Length: > 0 } ifMatch && ifMatch != "*" && existing?.ETag != ifMatch)
        {
            throw StoreException.PreconditionFailed($"Document '{id}' has a different ETag.", existing is null ? 0 : RequestCharge.PointRead(existing.Json.Length));
        }
    }

    private static BatchOperationResult Written(ContainerState container, BatchOperation operation, int status, StoredDocument document, StoredDocument? existing,
        bool patch = false) =>
        new(status, 0, document.ETag, operation.MinimalReturnPreference ? default : document.Json, container.WriteCharge(document, existing, patch).RequestUnits);
}
