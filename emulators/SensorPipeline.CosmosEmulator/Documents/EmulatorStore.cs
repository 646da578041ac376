using SensorPipeline.CosmosEmulator.Hosting;
using SensorPipeline.CosmosEmulator.Log;
using SensorPipeline.CosmosEmulator.Throttling;
using SensorPipeline.Emulators.Common;

namespace SensorPipeline.CosmosEmulator.Documents;

/// <summary>
/// The account's data: databases, containers and documents in memory. Every change is written to the mutation log
/// first and made visible by the log's writer once it is durable, then acknowledged: a write the disk refused leaves
/// nothing behind. Metadata changes take <see cref="_metadata"/> (one at a time); document changes take their
/// container's lock, which also orders their log records.
/// </summary>
internal sealed partial class EmulatorStore : IAsyncDisposable
{
    private readonly Lock _metadata = new();
    private readonly SemaphoreSlim _metadataWrites = new(1, 1);
    private readonly Dictionary<string, DatabaseState> _databases = new(StringComparer.Ordinal);
    private readonly CosmosEmulatorOptions _options;
    private readonly TimeProvider _time;
    private readonly Timer _purge;
    private MutationLog _log = null!;

    private EmulatorStore(CosmosEmulatorOptions options, TimeProvider time)
    {
        (_options, _time) = (options, time);
        _purge = new Timer(_ => PurgeExpired(), null, options.TimeToLivePurgeInterval, options.TimeToLivePurgeInterval);
    }

    /// <summary>The mutation log (its size and compactions, for status and tests).</summary>
    public MutationLog Log => _log;

    /// <summary>Opens the store in <paramref name="dataDirectory"/>, replaying its log; the log writes through
    /// <paramref name="storage"/>.</summary>
    public static EmulatorStore Open(string dataDirectory, CosmosEmulatorOptions options, TimeProvider time, ILogger logger, LogStorage storage)
    {
        ArgumentNullException.ThrowIfNull(options);
        var store = new EmulatorStore(options, time);
        store._log = MutationLog.Open(dataDirectory, options.Durability, options.FlushInterval, options.CompactionThresholdBytes,
            store.Replay, store.SnapshotRecords, store.LiveBytes, logger, storage);
        store.PurgeExpired();
        return store;
    }

    /// <summary>Unix seconds now (<c>_ts</c>).</summary>
    public long Now => _time.GetUtcNow().ToUnixTimeSeconds();

    public IReadOnlyList<DatabaseState> Databases
    {
        get
        {
            lock (_metadata)
            {
                return [.. _databases.Values];
            }
        }
    }

    /// <summary>The database named (or with the <c>_rid</c>) <paramref name="idOrRid"/>.</summary>
    public DatabaseState? FindDatabase(string idOrRid)
    {
        lock (_metadata)
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
        lock (_metadata)
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
        lock (_metadata)
        {
            return [.. database.Containers.Values];
        }
    }

    /// <summary>Sets one container's RU/s budget (the fault endpoint's throttling).</summary>
    public TokenBucket NewBudget() => new(_options.ThroughputPerContainer, _time);

    private long LiveBytes()
    {
        long total = 0;
        lock (_metadata)
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

    private void PurgeExpired()
    {
        var now = Now;
        foreach (var database in Databases)
        {
            foreach (var container in ContainersOf(database))
            {
                container.PurgeExpired(now);
            }
        }
    }

    public async ValueTask DisposeAsync()
    {
        await _purge.DisposeAsync();
        await _log.DisposeAsync();
        _metadataWrites.Dispose();
    }
}
