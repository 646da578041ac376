namespace SensorPipeline.Functions.Tests.Infrastructure;

/// <summary>
/// A Cosmos DB stand-in of its own and one handler writing to a fresh database, with an Event Hubs emulator of its own
/// where the fixture asks for one (the splitter sends there). <see cref="PipelineFixture"/> is the one the well-behaved
/// tests share; the others disturb the store (freeze it, fault it). Subclasses adjust the handler's settings and may put
/// something between the handler and the stand-in. The handler runs in-process unless a subclass needs the process
/// (Kestrel's limits, what the process itself exports).
/// </summary>
public abstract class SingleHandlerFixture : IAsyncLifetime, IDisposable
{
    private readonly string _databasePrefix;
    private readonly bool _inProcess;
    private readonly bool _withHubs;
    private CosmosEmulatorProcess? _standIn;
    private HubsEmulator? _hubs;
    private IHandlerUnderTest? _handler;
    private StoreReader? _store;
    private string? _database;

    /// <param name="databasePrefix">Starts the handler's database name, so a test's documents say which fixture wrote them.</param>
    /// <param name="inProcess">The handler in-process (<see cref="InProcessHandler"/>), or else as its own process.</param>
    /// <param name="withHubs">Start an Event Hubs emulator beside the stand-in and point <c>EventHubConnection</c> at it.</param>
    protected SingleHandlerFixture(string databasePrefix, bool inProcess = true, bool withHubs = false) =>
        (_databasePrefix, _inProcess, _withHubs) = (databasePrefix, inProcess, withHubs);

    internal CosmosEmulatorProcess StandIn => _standIn ?? throw new InvalidOperationException("not started");

    /// <summary>Where the handler's splitter sends its envelopes (a fixture started with hubs only).</summary>
    internal HubsEmulator Hubs => _hubs ?? throw new InvalidOperationException("not started with an Event Hubs emulator");

    internal IHandlerUnderTest Handler => _handler ?? throw new InvalidOperationException("not started");

    internal StoreReader Store => _store ?? throw new InvalidOperationException("not started");

    /// <summary>The handler's database (its containers exist once the handler has started).</summary>
    internal string Database => _database ?? throw new InvalidOperationException("not started");

    public async Task InitializeAsync()
    {
        // The two emulators start side by side; the handler needs both.
        var standIn = CosmosEmulatorProcess.StartAsync();
        var hubs = _withHubs ? HubsEmulator.StartAsync() : null;
        _standIn = await standIn;
        _hubs = hubs is null ? null : await hubs;
        var database = _databasePrefix + "-" + Guid.NewGuid().ToString("N")[..8];
        _database = database;
        var settings = CustomHandlerProcess.Settings(_standIn, database);
        if (_hubs is not null)
        {
            settings["EventHubConnection"] = _hubs.ConnectionString;
        }

        await ConfigureAsync(_standIn, settings);
        _handler = _inProcess ? InProcessHandler.Start(settings) : await CustomHandlerProcess.StartAsync(settings);
        // The reader always talks to the stand-in directly, whatever sits in the handler's way.
        _store = new StoreReader(_standIn, database) { DeviceStatesDurable = () => _handler.DeviceStatesDurableAsync() };
    }

    public virtual async Task DisposeAsync()
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
        Dispose(disposing: true);
        GC.SuppressFinalize(this);
    }

    /// <summary>Transient store retries short enough for a test to see their outcome within seconds: <paramref name="count"/>
    /// retries, the first after 50 ms, none more than <paramref name="maxDelay"/> apart.</summary>
    internal static void ShortRetries(Dictionary<string, string?> settings, int count, string maxDelay)
    {
        settings["Pipeline__TransientRetryCount"] = count.ToString(System.Globalization.CultureInfo.InvariantCulture);
        settings["Pipeline__TransientRetryBaseDelay"] = "00:00:00.050";
        settings["Pipeline__TransientRetryMaxDelay"] = maxDelay;
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
