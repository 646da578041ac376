using System.Text.Json.Nodes;
using SensorPipeline.CosmosEmulator.Charging;
using SensorPipeline.CosmosEmulator.Batch;
using SensorPipeline.CosmosEmulator.Log;

namespace SensorPipeline.CosmosEmulator.Documents;

/// <summary>How a write treats an existing document.</summary>
internal enum WriteKind
{
    /// <summary>409 when the id exists in the partition.</summary>
    Create,

    /// <summary>Creates (201) or replaces (200).</summary>
    Upsert,

    /// <summary>404 when the id does not exist.</summary>
    Replace,
}

/// <summary>Writes, reads, patches and deletes documents, one at a time or as a transactional batch: each change checked
/// and staged under its container's lock, appended to the log, visible once durable.</summary>
internal sealed class DocumentStore(Catalog catalog, MutationLog log)
{
    /// <summary>Creates, upserts or replaces a document. <paramref name="headerKey"/> is the canonical partition key
    /// from the request (null when the client sent none); the document's own key must match it. Returns 201 or 200
    /// and the stored document (with the one it replaced, if any) once the write is as durable as the mode promises.</summary>
    public async Task<(int Status, StoredDocument Document, StoredDocument? Previous)> WriteAsync(ContainerState container, WriteKind kind, string? headerKey, string? addressId,
        ReadOnlyMemory<byte> body, string? ifMatch)
    {
        ArgumentNullException.ThrowIfNull(container);
        using var parsed = DocumentBuilder.Parse(body);
        var root = parsed.RootElement;
        var id = root.GetProperty("id").GetString()!;
        if (addressId is not null && addressId != id)
        {
            throw new StoreException(400, "BadRequest", $"The id in the body ('{id}') must match the id in the address ('{addressId}').");
        }

        var key = KeyOf(container, root, headerKey);
        int status;
        StoredDocument stored;
        StoredDocument? existing;
        Task logged;
        lock (container.Gate)
        {
            existing = container.FindLatest(key, id, catalog.Now);
            switch (kind)
            {
                case WriteKind.Create when existing is not null:
                    throw StoreException.Conflict($"Document '{id}'.", RequestCharge.PointRead(existing.Json.Length));
                case WriteKind.Replace when existing is null:
                    throw StoreException.NotFound($"Document '{id}'.");
                default:
                    break;
            }

            if (ifMatch is not null && kind != WriteKind.Create && (existing is null || existing.ETag != ifMatch))
            {
                throw StoreException.PreconditionFailed($"Document '{id}' has a different ETag.", existing is null ? 0 : RequestCharge.PointRead(existing.Json.Length));
            }

            stored = Store(container, key, id, root, existing, out logged);
            status = existing is null ? 201 : 200;
        }

        await logged;
        return (status, stored, existing);
    }

    /// <summary>The live document, or 404.</summary>
    public StoredDocument Read(ContainerState container, string key, string id)
    {
        ArgumentNullException.ThrowIfNull(container);
        return container.Read(key, id, catalog.Now) ?? throw StoreException.NotFound($"Document '{id}'.");
    }

    /// <summary>Deletes a document (404 when absent, 412 when <paramref name="ifMatch"/> differs); returns it.</summary>
    public async Task<StoredDocument> DeleteAsync(ContainerState container, string key, string id, string? ifMatch)
    {
        ArgumentNullException.ThrowIfNull(container);
        StoredDocument existing;
        Task logged;
        lock (container.Gate)
        {
            existing = container.FindLatest(key, id, catalog.Now) ?? throw StoreException.NotFound($"Document '{id}'.");
            if (ifMatch is not null && existing.ETag != ifMatch)
            {
                throw StoreException.PreconditionFailed($"Document '{id}' has a different ETag.");
            }

            logged = Append(container, [new Mutation(MutationKind.DeleteDocument, container.DatabaseId, container.Id, key, id, default, "", catalog.Now, null)], [(key, id, null)]);
        }

        await logged;
        return existing;
    }

    /// <summary>Applies patch operations to a document: 404 when absent, 412 when <paramref name="ifMatch"/> differs or
    /// <paramref name="condition"/> (the filter predicate) is false for the current document, 400 when an operation
    /// cannot apply or would change the id or partition key. Returns the stored document and the one it replaced.</summary>
    public async Task<(StoredDocument Document, StoredDocument Previous)> PatchAsync(ContainerState container, string key, string id, IReadOnlyList<PatchOperation> operations,
        Func<ReadOnlyMemory<byte>, bool>? condition, string? ifMatch)
    {
        ArgumentNullException.ThrowIfNull(container);
        ArgumentNullException.ThrowIfNull(operations);
        StoredDocument stored;
        StoredDocument existing;
        Task logged;
        lock (container.Gate)
        {
            existing = container.FindLatest(key, id, catalog.Now) ?? throw StoreException.NotFound($"Document '{id}'.");
            if (ifMatch is not null && existing.ETag != ifMatch)
            {
                throw StoreException.PreconditionFailed($"Document '{id}' has a different ETag.", RequestCharge.PointRead(existing.Json.Length));
            }

            if (condition is not null && !condition(existing.Json))
            {
                throw StoreException.PreconditionFailed($"The filter predicate is false for document '{id}'.", RequestCharge.PointRead(existing.Json.Length));
            }

            using var patched = Patched(container, key, id, existing, operations);
            stored = Store(container, key, id, patched.RootElement, existing, out logged);
        }

        await logged;
        return (stored, existing);
    }

    /// <summary>Builds the stored document and queues its log record; the caller holds the container's lock.</summary>
    private StoredDocument Store(ContainerState container, string key, string id, JsonElement root, StoredDocument? existing, out Task logged)
    {
        var (stored, mutation) = NewVersion(container, key, id, root, existing, catalog.Now);
        logged = Append(container, [mutation], [(key, id, stored)]);
        return stored;
    }

    /// <summary>Queues one record of <paramref name="mutations"/> with the document versions it writes, staged as pending:
    /// later writes are checked against them, readers see them only once the log's writer commits them (the record is
    /// durable). The caller holds the container's lock, which orders the record with the checks that led to it.</summary>
    private Task Append(ContainerState container, Mutation[] mutations, (string PartitionKey, string Id, StoredDocument? Document)[] versions) =>
        log.AppendAsync(MutationCodec.Encode(mutations), new PendingWrite(container, versions));

    /// <summary>The next version of a document (a new ETag and <c>_ts</c>; the <c>_rid</c> kept) and its log mutation.</summary>
    public static (StoredDocument Document, Mutation Mutation) NewVersion(ContainerState container, string key, string id, JsonElement root, StoredDocument? existing, long now)
    {
        var rid = existing is null ? ResourceIds.NewDocument(container.Rid) : RidOf(existing) ?? ResourceIds.NewDocument(container.Rid);
        var etag = DocumentBuilder.NewETag();
        var json = DocumentBuilder.Build(root, rid, $"{container.SelfLink}docs/{rid}/", etag, now, out var ttl);
        return (new StoredDocument(json, etag, now, ttl), new Mutation(MutationKind.PutDocument, container.DatabaseId, container.Id, key, id, json, etag, now, ttl));
    }

    /// <summary>Applies patch operations to a copy of <paramref name="existing"/>; 400 when the result would change the
    /// id or partition key. The caller disposes the result.</summary>
    public static JsonDocument Patched(ContainerState container, string key, string id, StoredDocument existing, IReadOnlyList<PatchOperation> operations)
    {
        var node = JsonNode.Parse(existing.Json)!.AsObject();
        PatchApplier.Apply(node, operations);
        var patched = JsonSerializer.SerializeToDocument(node);
        var root = patched.RootElement;
        if (root.GetProperty("id").GetString() != id || PartitionKeys.FromDocument(root, container.PartitionKeyPaths) != key)
        {
            patched.Dispose();
            throw new StoreException(400, "BadRequest", "A patch cannot change the id or the partition key of a document.");
        }

        return patched;
    }

    private static string? RidOf(StoredDocument document)
    {
        var reader = new Utf8JsonReader(document.Json);
        while (reader.Read())
        {
            if (reader.TokenType == JsonTokenType.PropertyName && reader.CurrentDepth == 1 && reader.ValueTextEquals("_rid"))
            {
                reader.Read();
                return reader.GetString();
            }

            if (reader.TokenType is JsonTokenType.StartObject or JsonTokenType.StartArray && reader.CurrentDepth >= 1)
            {
                reader.Skip();
            }
        }

        return null;
    }

    /// <summary>The document's canonical partition key, checked against the request's.</summary>
    public static string KeyOf(ContainerState container, JsonElement root, string? headerKey)
    {
        var key = PartitionKeys.FromDocument(root, container.PartitionKeyPaths);
        if (headerKey is not null && headerKey != key)
        {
            throw new StoreException(400, "BadRequest", $"PartitionKey extracted from document doesn't match the one specified in the header ({key} in the document, {headerKey} in the header).", 1001);
        }

        return key;
    }

    /// <summary>
    /// A TransactionalBatch: the operations run in order against one partition under the container's lock, each
    /// seeing the ones before it; if one fails nothing is applied (it reports its status, the others 424), else every
    /// change is written as one log record and becomes visible together once it is durable, so neither a crash nor a
    /// full disk ever leaves half a batch.
    /// </summary>
    public async Task<IReadOnlyList<BatchOperationResult>> ExecuteAtomicAsync(ContainerState container, string key, IReadOnlyList<BatchOperation> operations,
        Func<string, Func<ReadOnlyMemory<byte>, bool>> predicate)
    {
        ArgumentNullException.ThrowIfNull(container);
        ArgumentNullException.ThrowIfNull(operations);
        var results = new BatchOperationResult[operations.Count];
        var logged = Task.CompletedTask;
        lock (container.Gate)
        {
            var now = catalog.Now;
            var staged = new Dictionary<string, StoredDocument?>(StringComparer.Ordinal);
            var mutations = new List<Mutation>();
            for (var i = 0; i < operations.Count; i++)
            {
                try
                {
                    results[i] = BatchStaging.Stage(container, key, operations[i], staged, mutations, now, predicate);
                }
                catch (StoreException e)
                {
                    return BatchOutcome.AbortedAtomic(operations.Count, i, BatchStaging.Failure(e));
                }
            }

            if (mutations.Count > 0)
            {
                logged = Append(container, [.. mutations], [.. staged.Select(s => (key, s.Key, s.Value))]);
            }
        }

        await logged;
        return results;
    }
}
