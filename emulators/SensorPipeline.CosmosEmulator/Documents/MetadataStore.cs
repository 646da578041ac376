using System.Buffers;
using SensorPipeline.CosmosEmulator.Log;

namespace SensorPipeline.CosmosEmulator.Documents;

/// <summary>Creates, replaces and deletes databases and containers: one change at a time, checked against the
/// committed <see cref="Catalog"/>, applied to it once the log holds the change.</summary>
internal sealed class MetadataStore(Catalog catalog, MutationLog log) : IDisposable
{
    private readonly SemaphoreSlim _metadataWrites = new(1, 1);

    public async Task<DatabaseState> CreateDatabaseAsync(JsonElement body)
    {
        var id = RequireId(body, "database");
        var rid = ResourceIds.NewDatabase();
        var resource = Resource(body, static _ => { }, writer =>
        {
            writer.WriteString("_rid", rid);
            writer.WriteString("_self", $"dbs/{rid}/");
            writer.WriteString("_colls", "colls/");
            writer.WriteString("_users", "users/");
        });
        var database = new DatabaseState(resource);
        await ChangeMetadataAsync(
            () => Require(!catalog.Committed.ContainsKey(id), () => StoreException.Conflict($"Database '{id}'.")),
            new Mutation(MutationKind.PutDatabase, id, "", "", id, resource, "", catalog.Now, null),
            () => catalog.Committed[id] = database);
        return database;
    }

    public Task DeleteDatabaseAsync(DatabaseState database)
    {
        ArgumentNullException.ThrowIfNull(database);
        return ChangeMetadataAsync(
            () => Require(catalog.Committed.ContainsKey(database.Id), () => StoreException.NotFound($"Database '{database.Id}'.")),
            new Mutation(MutationKind.DeleteDatabase, database.Id, "", "", database.Id, default, "", catalog.Now, null),
            () => catalog.Committed.Remove(database.Id));
    }

    public async Task<ContainerState> CreateContainerAsync(DatabaseState database, JsonElement body)
    {
        ArgumentNullException.ThrowIfNull(database);
        var id = RequireId(body, "container");
        var rid = ResourceIds.NewContainer(database.Rid);
        var resource = ContainerResource(body, rid, database.Rid);
        var container = catalog.NewContainer(database.Id, resource);
        await ChangeMetadataAsync(
            () =>
            {
                Require(catalog.Committed.ContainsKey(database.Id), () => StoreException.NotFound($"Database '{database.Id}'."));
                Require(!database.Containers.ContainsKey(id), () => StoreException.Conflict($"Container '{id}'."));
            },
            new Mutation(MutationKind.PutContainer, database.Id, id, "", id, resource, "", catalog.Now, null),
            () => database.Containers[id] = container);
        return container;
    }

    /// <summary>Replaces a container's definition: TTL and indexing policy change; its id and partition key cannot.</summary>
    public async Task<ContainerState> ReplaceContainerAsync(DatabaseState database, ContainerState container, JsonElement body)
    {
        ArgumentNullException.ThrowIfNull(database);
        ArgumentNullException.ThrowIfNull(container);
        if (RequireId(body, "container") != container.Id)
        {
            throw new StoreException(400, "BadRequest", "The container id in the body must match the one in the address.");
        }

        var resource = ContainerResource(body, container.Rid, database.Rid);
        await ChangeMetadataAsync(
            () => Require(SamePartitionKey(resource, container.Resource), () => new StoreException(400, "BadRequest", "A container's partition key cannot change.")),
            new Mutation(MutationKind.PutContainer, database.Id, container.Id, "", container.Id, resource, "", catalog.Now, null),
            () =>
            {
                lock (container.Gate)
                {
                    container.Update(resource);
                }
            });
        return container;
    }

    public Task DeleteContainerAsync(DatabaseState database, ContainerState container)
    {
        ArgumentNullException.ThrowIfNull(database);
        ArgumentNullException.ThrowIfNull(container);
        return ChangeMetadataAsync(
            () => Require(database.Containers.ContainsKey(container.Id), () => StoreException.NotFound($"Container '{container.Id}'.")),
            new Mutation(MutationKind.DeleteContainer, database.Id, container.Id, "", container.Id, default, "", catalog.Now, null),
            () => database.Containers.Remove(container.Id));
    }

    /// <summary>One metadata change at a time: <paramref name="check"/> (throws the refusal) runs against the committed
    /// metadata, the record is written, and the log's writer applies <paramref name="apply"/> once it is durable —
    /// before the next change is checked. Metadata changes are rare, so they need no pending versions.</summary>
    private async Task ChangeMetadataAsync(Action check, Mutation mutation, Action apply)
    {
        await _metadataWrites.WaitAsync();
        try
        {
            lock (catalog.Gate)
            {
                check();
            }

            await log.AppendAsync(MutationCodec.Encode([mutation]), new MetadataChange(() =>
            {
                lock (catalog.Gate)
                {
                    apply();
                }
            }));
        }
        finally
        {
            _metadataWrites.Release();
        }
    }

    private static void Require(bool condition, Func<StoreException> refusal)
    {
        if (!condition)
        {
            throw refusal();
        }
    }

    private static bool SamePartitionKey(byte[] replacement, byte[] current)
    {
        using var next = JsonDocument.Parse(replacement);
        using var now = JsonDocument.Parse(current);
        return next.RootElement.GetProperty("partitionKey").GetProperty("paths").GetRawText()
            == now.RootElement.GetProperty("partitionKey").GetProperty("paths").GetRawText();
    }

    /// <summary>A metadata record's effect: applied when durable; nothing to undo when it is not written.</summary>
    private sealed class MetadataChange(Action apply) : IRecordEffect
    {
        public bool IsCurrent => true;

        public void Apply() => apply();

        public void Discard(bool writeFailed)
        {
        }
    }

    private byte[] ContainerResource(JsonElement body, string rid, string databaseRid) => Resource(body, (writer) =>
    {
        if (!body.TryGetProperty("indexingPolicy", out _))
        {
            writer.WritePropertyName("indexingPolicy");
            using var policy = JsonDocument.Parse("""
                {"indexingMode":"consistent","automatic":true,"includedPaths":[{"path":"/*"}],"excludedPaths":[{"path":"/\"_etag\"/?"}]}
                """);
            policy.RootElement.WriteTo(writer);
        }

        if (!body.TryGetProperty("partitionKey", out _))
        {
            writer.WritePropertyName("partitionKey");
            using var key = JsonDocument.Parse("""{"paths":["/_partitionKey"],"kind":"Hash","version":2}""");
            key.RootElement.WriteTo(writer);
        }

        if (!body.TryGetProperty("conflictResolutionPolicy", out _))
        {
            writer.WritePropertyName("conflictResolutionPolicy");
            using var policy = JsonDocument.Parse("""{"mode":"LastWriterWins","conflictResolutionPath":"/_ts","conflictResolutionProcedure":""}""");
            policy.RootElement.WriteTo(writer);
        }

        if (!body.TryGetProperty("geospatialConfig", out _))
        {
            writer.WritePropertyName("geospatialConfig");
            using var config = JsonDocument.Parse("""{"type":"Geography"}""");
            config.RootElement.WriteTo(writer);
        }
    }, writer =>
    {
        writer.WriteString("_rid", rid);
        writer.WriteString("_self", $"dbs/{databaseRid}/colls/{rid}/");
        writer.WriteString("_docs", "docs/");
        writer.WriteString("_sprocs", "sprocs/");
        writer.WriteString("_triggers", "triggers/");
        writer.WriteString("_udfs", "udfs/");
        writer.WriteString("_conflicts", "conflicts/");
    });

    /// <summary>A resource: the client's properties, then defaults, then the system properties.</summary>
    private byte[] Resource(JsonElement body, Action<Utf8JsonWriter> defaults, Action<Utf8JsonWriter> system)
    {
        var buffer = new ArrayBufferWriter<byte>(512);
        using (var writer = new Utf8JsonWriter(buffer))
        {
            writer.WriteStartObject();
            foreach (var property in body.EnumerateObject())
            {
                if (!property.Name.StartsWith('_'))
                {
                    property.WriteTo(writer);
                }
            }

            defaults(writer);
            system(writer);
            writer.WriteString("_etag", DocumentBuilder.NewETag());
            writer.WriteNumber("_ts", catalog.Now);
            writer.WriteEndObject();
        }

        return buffer.WrittenSpan.ToArray();
    }

    private static string RequireId(JsonElement body, string what) =>
        body.ValueKind == JsonValueKind.Object && body.TryGetProperty("id", out var id) && id.ValueKind == JsonValueKind.String && id.GetString() is { Length: > 0 and <= 255 } text
            && text.AsSpan().IndexOfAny("/\\?#") < 0
            ? text
            : throw new StoreException(400, "BadRequest", $"The {what} needs an id: a non-empty string of at most 255 characters without '/', '\\', '?' or '#'.");

    public void Dispose() => _metadataWrites.Dispose();
}
