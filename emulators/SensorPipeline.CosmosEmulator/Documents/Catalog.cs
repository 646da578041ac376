using SensorPipeline.CosmosEmulator.Hosting;
using SensorPipeline.CosmosEmulator.Throttling;

namespace SensorPipeline.CosmosEmulator.Documents;

/// <summary>
/// The account's databases and containers as committed, and its clock. Readers take <see cref="Gate"/> for a moment;
/// the metadata writer changes <see cref="Committed"/> under it once a change is durable, and recovery while the log
/// replays (single-threaded, before anyone reads).
/// </summary>
internal sealed class Catalog(CosmosEmulatorOptions options, TimeProvider time)
{
    private readonly Dictionary<string, DatabaseState> _databases = new(StringComparer.Ordinal);

    /// <summary>The lock over <see cref="Committed"/>.</summary>
    public Lock Gate { get; } = new();

    /// <summary>The databases by id; the caller holds <see cref="Gate"/> (or is the replay at start-up).</summary>
    public Dictionary<string, DatabaseState> Committed => _databases;

    /// <summary>Unix seconds now (<c>_ts</c>).</summary>
    public long Now => time.GetUtcNow().ToUnixTimeSeconds();

    public IReadOnlyList<DatabaseState> Databases
    {
        get
        {
            lock (Gate)
            {
                return [.. _databases.Values];
            }
        }
    }

    /// <summary>The database named (or with the <c>_rid</c>) <paramref name="idOrRid"/>.</summary>
    public DatabaseState? FindDatabase(string idOrRid)
    {
        lock (Gate)
        {
            if (_databases.TryGetValue(idOrRid, out var database))
            {
                return database;
            }

            foreach (var candidate in _databases.Values)
            {
                if (candidate.Rid == idOrRid)
                {
                    return candidate;
                }
            }

            return null;
        }
    }

    /// <summary>The container named (or with the <c>_rid</c>) <paramref name="idOrRid"/> in <paramref name="database"/>.</summary>
    public ContainerState? FindContainer(DatabaseState database, string idOrRid)
    {
        ArgumentNullException.ThrowIfNull(database);
        lock (Gate)
        {
            if (database.Containers.TryGetValue(idOrRid, out var container))
            {
                return container;
            }

            foreach (var candidate in database.Containers.Values)
            {
                if (candidate.Rid == idOrRid)
                {
                    return candidate;
                }
            }

            return null;
        }
    }

    public IReadOnlyList<ContainerState> ContainersOf(DatabaseState database)
    {
        ArgumentNullException.ThrowIfNull(database);
        lock (Gate)
        {
            return [.. database.Containers.Values];
        }
    }

    /// <summary>A container's state as created or replayed: a fresh RU/s budget and the configured number of
    /// partition key ranges.</summary>
    public ContainerState NewContainer(string databaseId, byte[] resource) =>
        new(databaseId, resource, new TokenBucket(options.ThroughputPerContainer, time)) { RequestedRanges = options.PartitionKeyRanges };

    /// <summary>The bytes of every resource and document (the log compacts when its file outgrows them).</summary>
    public long LiveBytes()
    {
        long total = 0;
        lock (Gate)
        {
            foreach (var database in _databases.Values)
            {
                total += database.Resource.Length;
                foreach (var container in database.Containers.Values)
                {
                    total += container.Resource.Length + container.Bytes;
                }
            }
        }

        return total;
    }
}
