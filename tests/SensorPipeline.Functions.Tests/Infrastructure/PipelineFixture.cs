namespace SensorPipeline.Functions.Tests.Infrastructure;

/// <summary>One Cosmos DB stand-in and one handler process shared by a collection of tests (each uses its own devices).</summary>
public sealed class PipelineFixture : IAsyncLifetime, IDisposable
{
    private CosmosStandIn? _standIn;
    private HandlerProcess? _handler;
    private StoreReader? _store;

    internal CosmosStandIn StandIn => _standIn ?? throw new InvalidOperationException("not started");

    internal HandlerProcess Handler => _handler ?? throw new InvalidOperationException("not started");

    internal StoreReader Store => _store ?? throw new InvalidOperationException("not started");

    public async Task InitializeAsync()
    {
        _standIn = await CosmosStandIn.StartAsync();
        var database = "tests-" + Guid.NewGuid().ToString("N")[..8];
        _handler = await HandlerProcess.StartAsync(HandlerProcess.Settings(_standIn, database));
        _store = new StoreReader(_standIn, database);
    }

    public Task DisposeAsync()
    {
        Dispose();
        return Task.CompletedTask;
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
