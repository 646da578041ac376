using SensorPipeline.CosmosEmulator.Hosting;
using SensorPipeline.CosmosEmulator.Log;
using SensorPipeline.Emulators.Common;

namespace SensorPipeline.CosmosEmulator.Documents;

/// <summary>
/// The account's data: databases, containers and documents in memory (<see cref="Catalog"/>). Every change is written
/// to the mutation log first and made visible by the log's writer once it is durable, then acknowledged: a write the
/// disk refused leaves nothing behind. Metadata changes go through <see cref="Metadata"/> (one at a time), document
/// changes through <see cref="Documents"/> (under their container's lock, which also orders their log records); the
/// log replays into the catalog through <see cref="StoreRecovery"/>.
/// </summary>
internal sealed class EmulatorStore : IAsyncDisposable
{
    private readonly Timer _purge;
    private readonly MutationLog _log;

    private EmulatorStore(Catalog catalog, MutationLog log, CosmosEmulatorOptions options)
    {
        (Catalog, _log) = (catalog, log);
        Metadata = new MetadataStore(catalog, log);
        Documents = new DocumentStore(catalog, log);
        _purge = new Timer(_ => PurgeExpired(), null, options.TimeToLivePurgeInterval, options.TimeToLivePurgeInterval);
    }

    /// <summary>The databases and containers as committed.</summary>
    public Catalog Catalog { get; }

    /// <summary>Creates, replaces and deletes databases and containers.</summary>
    public MetadataStore Metadata { get; }

    /// <summary>Writes, reads, patches and deletes documents, one at a time or as a transactional batch.</summary>
    public DocumentStore Documents { get; }

    /// <summary>The mutation log (its size and compactions, for status and tests).</summary>
    public MutationLog Log => _log;

    /// <summary>Unix seconds now (<c>_ts</c>).</summary>
    public long Now => Catalog.Now;

    /// <summary>Opens the store in <paramref name="dataDirectory"/>, replaying its log; the log writes through
    /// <paramref name="storage"/>.</summary>
    public static EmulatorStore Open(string dataDirectory, CosmosEmulatorOptions options, TimeProvider time, ILogger logger, LogStorage storage)
    {
        ArgumentNullException.ThrowIfNull(options);
        var catalog = new Catalog(options, time);
        var recovery = new StoreRecovery(catalog);
        var log = MutationLog.Open(dataDirectory, options.Durability, options.FlushInterval, options.CompactionThresholdBytes,
            recovery.Replay, recovery.SnapshotRecords, catalog.LiveBytes, logger, storage);
        var store = new EmulatorStore(catalog, log, options);
        store.PurgeExpired();
        return store;
    }

    private void PurgeExpired()
    {
        var now = Now;
        foreach (var database in Catalog.Databases)
        {
            foreach (var container in Catalog.ContainersOf(database))
            {
                container.PurgeExpired(now);
            }
        }
    }

    public async ValueTask DisposeAsync()
    {
        await _purge.DisposeAsync();
        await _log.DisposeAsync();
        Metadata.Dispose();
    }
}
