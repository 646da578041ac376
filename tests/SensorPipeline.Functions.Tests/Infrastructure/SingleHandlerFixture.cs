namespace SensorPipeline.Functions.Tests.Infrastructure;

/// <summary>
/// A Cosmos DB stand-in of its own and one handler writing to a fresh database, for tests that disturb the store
/// (freeze it, fault it) and so cannot share <see cref="PipelineFixture"/>. Subclasses adjust the handler's settings and
/// may put something between the handler and the stand-in. The handler runs in-process unless a subclass needs the
/// process (Kestrel's limits, what the process itself exports).
/// </summary>
public abstract class SingleHandlerFixture : IAsyncLifetime, IDisposable
{
    private readonly string _databasePrefix;
    private readonly bool _inProcess;
    private CosmosEmulatorProcess? _standIn;
    private IHandlerUnderTest? _handler;
    private StoreReader? _store;
    private string? _database;

    protected SingleHandlerFixture(string databasePrefix, bool inProcess = true) => (_databasePrefix, _inProcess) = (databasePrefix, inProcess);

    internal CosmosEmulatorProcess StandIn => _standIn ?? throw new InvalidOperationException("not started");

    internal IHandlerUnderTest Handler => _handler ?? throw new InvalidOperationException("not started");

    internal StoreReader Store => _store ?? throw new InvalidOperationException("not started");

    /// <summary>The handler's database (its containers exist once the handler has started).</summary>
    internal string Database => _database ?? throw new InvalidOperationException("not started");

    public async Task InitializeAsync()
    {
        _standIn = await CosmosEmulatorProcess.StartAsync();
        var database = _databasePrefix + "-" + Guid.NewGuid().ToString("N")[..8];
        _database = database;
        var settings = CustomHandlerProcess.Settings(_standIn, database);
        await ConfigureAsync(_standIn, settings);
        _handler = _inProcess ? InProcessHandler.Start(settings) : await CustomHandlerProcess.StartAsync(settings);
        // The reader always talks to the stand-in directly, whatever sits in the handler's way.
        _store = new StoreReader(_standIn, database) { DeviceStatesDurable = () => _handler.DeviceStatesDurableAsync() };
    }

    public virtual Task DisposeAsync()
    {
        Dispose();
        return Task.CompletedTask;
    }

    public void Dispose()
    {
        Dispose(disposing: true);
        GC.SuppressFinalize(this);
    }

    /// <summary>Adjusts the handler's settings before it starts (the stand-in is already listening).</summary>
    internal abstract Task ConfigureAsync(CosmosEmulatorProcess standIn, Dictionary<string, string?> settings);

    protected virtual void Dispose(bool disposing)
    {
        if (!disposing)
        {
            return;
        }

        _store?.Dispose();
        _handler?.Dispose();
        _standIn?.Dispose();
        _store = null;
        _handler = null;
        _standIn = null;
    }
}
