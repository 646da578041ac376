using SensorPipeline.CosmosEmulator.Log;

namespace SensorPipeline.CosmosEmulator.Documents;

/// <summary>The log's side of the catalog: its records replayed into the catalog at start-up, and the live data written
/// back as records when the log compacts.</summary>
internal sealed class StoreRecovery(Catalog catalog)
{
    /// <summary>Applies one log record's mutations at start-up (single-threaded; no locks needed yet).</summary>
    /// <exception cref="InvalidDataException">A resource in the record is not the JSON the store writes (the log names
    /// the record's file and byte).</exception>
    public void Replay(List<Mutation> mutations)
    {
        foreach (var m in mutations)
        {
            try
            {
                Apply(m);
            }
            catch (Exception e) when (e is JsonException or KeyNotFoundException or InvalidOperationException or FormatException)
            {
                throw new InvalidDataException($"its {m.Kind} of '{m.Database}/{m.Container}/{m.Id}' holds a resource this emulator did not write ({e.Message})", e);
            }
        }
    }

    /// <summary>Applies one mutation.</summary>
    private void Apply(in Mutation m)
    {
        switch (m.Kind)
        {
            case MutationKind.PutDatabase:
                catalog.Committed.TryAdd(m.Database, new DatabaseState(m.Body.ToArray()));
                break;
            case MutationKind.DeleteDatabase:
                catalog.Committed.Remove(m.Database);
                break;
            case MutationKind.PutContainer when catalog.Committed.TryGetValue(m.Database, out var database):
                if (database.Containers.TryGetValue(m.Container, out var existing))
                {
                    existing.Update(m.Body.ToArray());
                }
                else
                {
                    database.Containers[m.Container] = catalog.NewContainer(m.Database, m.Body.ToArray());
                }

                break;
            case MutationKind.DeleteContainer when catalog.Committed.TryGetValue(m.Database, out var database):
                database.Containers.Remove(m.Container);
                break;
            case MutationKind.PutDocument when ContainerFor(m) is { } container:
                container.Put(m.PartitionKey, m.Id, new StoredDocument(m.Body.ToArray(), m.ETag, m.Timestamp, m.TimeToLive));
                break;
            case MutationKind.DeleteDocument when ContainerFor(m) is { } container:
                container.Remove(m.PartitionKey, m.Id);
                break;
            default:
                // A mutation of a container deleted later in the log: nothing to apply.
                break;
        }
    }

    private ContainerState? ContainerFor(in Mutation m) =>
        catalog.Committed.TryGetValue(m.Database, out var database) && database.Containers.TryGetValue(m.Container, out var container) ? container : null;

    /// <summary>The live data as log records (compaction): databases, then containers, then their documents.</summary>
    public IEnumerable<byte[]> SnapshotRecords()
    {
        var now = catalog.Now;
        foreach (var database in catalog.Databases)
        {
            yield return MutationCodec.Encode([new Mutation(MutationKind.PutDatabase, database.Id, "", "", database.Id, database.Resource, "", now, null)]);
            foreach (var container in catalog.ContainersOf(database))
            {
                yield return MutationCodec.Encode([new Mutation(MutationKind.PutContainer, database.Id, container.Id, "", container.Id, container.Resource, "", now, null)]);
                foreach (var (key, id, document) in container.Entries())
                {
                    if (!document.IsExpired(container.DefaultTtl, now))
                    {
                        yield return MutationCodec.Encode([new Mutation(MutationKind.PutDocument, database.Id, container.Id, key, id, document.Json, document.ETag, document.Timestamp, document.TimeToLive)]);
                    }
                }
            }
        }
    }
}
