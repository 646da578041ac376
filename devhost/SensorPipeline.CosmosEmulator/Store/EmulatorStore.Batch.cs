using System.Text.Json;
using System.Text.Json.Nodes;
using SensorPipeline.CosmosEmulator.Batch;
using SensorPipeline.CosmosEmulator.Storage;

namespace SensorPipeline.CosmosEmulator.Store;

/// <summary>One applied operation of an atomic batch: its status and the document it read or wrote (for a delete,
/// the document it removed).</summary>
internal readonly record struct BatchStep(int Status, StoredDocument Document);

/// <summary>An atomic batch's outcome: every step when it committed, or the first failure (nothing was applied).</summary>
internal sealed record AtomicBatchOutcome(BatchStep[] Steps, int FailedIndex, StoreException? Failure)
{
    public bool Committed => Failure is null;
}

internal sealed partial class EmulatorStore
{
    /// <summary>
    /// Runs a TransactionalBatch: every operation against partition key <paramref name="key"/>, in order, under the
    /// container's lock, each one seeing the effects of the ones before it. Either all apply, and their mutations go
    /// to the log as one record (so recovery replays all or none), or the first refusal is returned and nothing
    /// changes. <paramref name="compilePredicate"/> turns a patch condition into a test of a document's JSON.
    /// </summary>
    public async Task<AtomicBatchOutcome> ExecuteAtomicAsync(ContainerState container, string key, IReadOnlyList<BatchOperation> operations,
        Func<string, Func<ReadOnlyMemory<byte>, bool>> compilePredicate)
    {
        ArgumentNullException.ThrowIfNull(container);
        ArgumentNullException.ThrowIfNull(operations);
        ArgumentNullException.ThrowIfNull(compilePredicate);
        var steps = new BatchStep[operations.Count];
        Task logged = Task.CompletedTask;
        lock (container.Gate)
        {
            // Staged writes by id (null = deleted) over the container, applied only when every operation succeeded.
            var staged = new Dictionary<string, StoredDocument?>(StringComparer.Ordinal);
            var now = Now;
            for (var i = 0; i < operations.Count; i++)
            {
                try
                {
                    steps[i] = Step(container, key, operations[i], staged, now, compilePredicate);
                }
                catch (StoreException e)
                {
                    return new AtomicBatchOutcome([], i, e);
                }
            }

            if (staged.Count > 0)
            {
                var mutations = new Mutation[staged.Count];
                var n = 0;
                foreach (var (id, document) in staged)
                {
                    if (document is null)
                    {
                        container.Remove(key, id);
                        mutations[n++] = new Mutation(MutationKind.DeleteDocument, container.DatabaseId, container.Id, key, id, default, "", now, null);
                    }
                    else
                    {
                        container.Put(key, id, document);
                        mutations[n++] = new Mutation(MutationKind.PutDocument, container.DatabaseId, container.Id, key, id, document.Json,
                            document.ETag, now, document.TimeToLive);
                    }
                }

                logged = _log.AppendAsync(MutationCodec.Encode(mutations));
            }
        }

        await logged;
        return new AtomicBatchOutcome(steps, -1, null);
    }

    /// <summary>One operation against the staged view; throws <see cref="StoreException"/> with the service's answer.</summary>
    private static BatchStep Step(ContainerState container, string key, BatchOperation operation, Dictionary<string, StoredDocument?> staged,
        long now, Func<string, Func<ReadOnlyMemory<byte>, bool>> compilePredicate)
    {
        StoredDocument? Current(string id) => staged.TryGetValue(id, out var document) ? document : container.Find(key, id, now);

        switch (operation.Kind)
        {
            case BatchOperationKind.Read:
                return new BatchStep(200, Current(operation.Id!) ?? throw StoreException.NotFound($"Document '{operation.Id}'."));

            case BatchOperationKind.Delete:
            {
                var existing = Existing(Current(operation.Id!), operation);
                staged[operation.Id!] = null;
                return new BatchStep(204, existing);
            }

            case BatchOperationKind.Patch:
            {
                var existing = Existing(Current(operation.Id!), operation);
                var (patches, condition) = PatchApplier.ParseRequest(operation.ResourceBody);
                if (condition is not null && !compilePredicate(condition)(existing.Json))
                {
                    throw StoreException.PreconditionFailed($"The filter predicate is false for document '{operation.Id}'.");
                }

                var node = JsonNode.Parse(existing.Json)!.AsObject();
                PatchApplier.Apply(node, patches);
                using var patched = JsonSerializer.SerializeToDocument(node);
                var root = patched.RootElement;
                if (root.GetProperty("id").GetString() != operation.Id || PartitionKeys.FromDocument(root, container.PartitionKeyPaths) != key)
                {
                    throw new StoreException(400, "BadRequest", "A patch cannot change the id or the partition key of a document.");
                }

                var document = Staged(container, root, existing, now);
                staged[operation.Id!] = document;
                return new BatchStep(200, document);
            }

            default:
            {
                using var parsed = DocumentBuilder.Parse(operation.ResourceBody);
                var root = parsed.RootElement;
                var id = root.GetProperty("id").GetString()!;
                if (operation.Id is not null && operation.Id != id)
                {
                    throw new StoreException(400, "BadRequest", $"The id in the body ('{id}') must match the operation's id ('{operation.Id}').");
                }

                KeyOf(container, root, key);
                var existing = Current(id);
                switch (operation.Kind)
                {
                    case BatchOperationKind.Create when existing is not null:
                        throw StoreException.Conflict($"Document '{id}'.");
                    case BatchOperationKind.Replace when existing is null:
                        throw StoreException.NotFound($"Document '{id}'.");
                    case not BatchOperationKind.Create when operation.IfMatch is not null && existing?.ETag != operation.IfMatch:
                        throw StoreException.PreconditionFailed($"Document '{id}' has a different ETag.");
                    default:
                        break;
                }

                var document = Staged(container, root, existing, now);
                staged[id] = document;
                return new BatchStep(existing is null ? 201 : 200, document);
            }
        }
    }

    /// <summary>The document a delete or patch works on: 404 when absent, 412 when the operation's If-Match differs.</summary>
    private static StoredDocument Existing(StoredDocument? current, BatchOperation operation)
    {
        var existing = current ?? throw StoreException.NotFound($"Document '{operation.Id}'.");
        if (operation.IfMatch is not null && existing.ETag != operation.IfMatch)
        {
            throw StoreException.PreconditionFailed($"Document '{operation.Id}' has a different ETag.");
        }

        return existing;
    }

    /// <summary>The stored form of a staged write (a new ETag and timestamp; the _rid kept across replaces).</summary>
    private static StoredDocument Staged(ContainerState container, JsonElement root, StoredDocument? existing, long now)
    {
        var rid = existing is null ? ResourceIds.NewDocument(container.Rid) : RidOf(existing) ?? ResourceIds.NewDocument(container.Rid);
        var etag = DocumentBuilder.NewETag();
        var json = DocumentBuilder.Build(root, rid, $"{container.SelfLink}docs/{rid}/", etag, now, out var ttl);
        return new StoredDocument(json, etag, now, ttl);
    }
}
