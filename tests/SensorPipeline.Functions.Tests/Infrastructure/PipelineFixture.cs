namespace SensorPipeline.Functions.Tests.Infrastructure;

/// <summary>One Cosmos DB stand-in, one Event Hubs emulator (where the splitter sends) and one handler, in-process, shared
/// by a collection of tests (each test uses its own devices).</summary>
public sealed class PipelineFixture : IAsyncLifetime, IDisposable
{
    private CosmosEmulatorProcess? _standIn;
    private HubsEmulator? _hubs;
    private InProcessHandler? _handler;
    private StoreReader? _store;

    internal CosmosEmulatorProcess StandIn => _standIn ?? throw new InvalidOperationException("not started");

    /// <summary>Where the handlers' splitter sends its envelopes.</summary>
    internal HubsEmulator Hubs => _hubs ?? throw new InvalidOperationException("not started");

    internal IHandlerUnderTest Handler => _handler ?? throw new InvalidOperationException("not started");

    internal StoreReader Store => _store ?? throw new InvalidOperationException("not started");

    public async Task InitializeAsync()
    {
        var standIn = CosmosEmulatorProcess.StartAsync();
        var hubs = HubsEmulator.StartAsync();
        (_standIn, _hubs) = (await standIn, await hubs);
        var database = "tests-" + Guid.NewGuid().ToString("N")[..8];
        // Every write phase through the bulk client, however small, so the shared tests (newer-wins, redelivery,
        // on both sides of the max age) run the batched path; the point path runs in the fixtures with a fault proxy.
        var settings = CustomHandlerProcess.Settings(_standIn, database);
        settings["Pipeline__BulkMinimumDocuments"] = "1";
        settings["EventHubConnection"] = _hubs.ConnectionString;
        _handler = InProcessHandler.Start(settings);
        _store = new StoreReader(_standIn, database) { DeviceStatesDurable = () => _handler.DeviceStatesDurableAsync() };
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
        _standIn?.Dispose();
        _store = null;
        _handler = null;
        _standIn = null;
    }
}

[CollectionDefinition(Name)]
public sealed class PipelineGroup : ICollectionFixture<PipelineFixture>
{
    public const string Name = "pipeline";
}
