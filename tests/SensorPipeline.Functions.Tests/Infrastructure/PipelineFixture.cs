namespace SensorPipeline.Functions.Tests.Infrastructure;

/// <summary>
/// One Cosmos DB stand-in, one Event Hubs emulator and two handler processes shared by a collection of tests (each test
/// uses its own devices): one per device-write strategy (Pipeline__DeviceWrite), each with its own database.
/// </summary>
public sealed class PipelineFixture : IAsyncLifetime, IDisposable
{
    private CosmosEmulatorProcess? _standIn;
    private HubsEmulator? _hubs;
    private CustomHandlerProcess? _handler;
    private StoreReader? _store;
    private CustomHandlerProcess? _readReplaceHandler;
    private StoreReader? _readReplaceStore;

    internal CosmosEmulatorProcess StandIn => _standIn ?? throw new InvalidOperationException("not started");

    /// <summary>Where the handlers' splitter sends its envelopes.</summary>
    internal HubsEmulator Hubs => _hubs ?? throw new InvalidOperationException("not started");

    internal CustomHandlerProcess Handler => _handler ?? throw new InvalidOperationException("not started");

    internal StoreReader Store => _store ?? throw new InvalidOperationException("not started");

    /// <summary>The handler and the store reader for a device-write strategy ("Patch", the default, or "ReadReplace").</summary>
    internal (CustomHandlerProcess Handler, StoreReader Store) For(string deviceWrite) => deviceWrite switch
    {
        "Patch" => (Handler, Store),
        "ReadReplace" => (_readReplaceHandler!, _readReplaceStore!),
        _ => throw new ArgumentOutOfRangeException(nameof(deviceWrite), deviceWrite, null),
    };

    public async Task InitializeAsync()
    {
        var standIn = CosmosEmulatorProcess.StartAsync();
        var hubs = HubsEmulator.StartAsync();
        (_standIn, _hubs) = (await standIn, await hubs);
        var database = "tests-" + Guid.NewGuid().ToString("N")[..8];
        var readReplaceDatabase = database + "-rr";
        // Every write phase through the bulk client, however small, so the shared tests (newer-wins, redelivery,
        // on both sides of the max age) run the batched path; the point path runs in the fixtures with a fault proxy.
        var settings = CustomHandlerProcess.Settings(_standIn, database);
        settings["Pipeline__BulkMinimumDocuments"] = "1";
        settings["EventHubConnection"] = _hubs.ConnectionString;
        var readReplaceSettings = CustomHandlerProcess.Settings(_standIn, readReplaceDatabase);
        readReplaceSettings["Pipeline__DeviceWrite"] = "ReadReplace";
        readReplaceSettings["Pipeline__BulkMinimumDocuments"] = "1";
        var handlers = await Task.WhenAll(
            CustomHandlerProcess.StartAsync(settings),
            CustomHandlerProcess.StartAsync(readReplaceSettings));
        (_handler, _readReplaceHandler) = (handlers[0], handlers[1]);
        _store = new StoreReader(_standIn, database);
        _readReplaceStore = new StoreReader(_standIn, readReplaceDatabase);
    }

    public async Task DisposeAsync()
    {
        Dispose();
        if (_hubs is not null)
        {
            await _hubs.DisposeAsync();
            _hubs = null;
        }
    }

    public void Dispose()
    {
        _store?.Dispose();
        _handler?.Dispose();
        _readReplaceStore?.Dispose();
        _readReplaceHandler?.Dispose();
        _standIn?.Dispose();
        _store = null;
        _handler = null;
        _readReplaceStore = null;
        _readReplaceHandler = null;
        _standIn = null;
    }
}

[CollectionDefinition(Name)]
public sealed class PipelineGroup : ICollectionFixture<PipelineFixture>
{
    public const string Name = "pipeline";
}
