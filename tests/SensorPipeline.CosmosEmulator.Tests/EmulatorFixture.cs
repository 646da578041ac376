using Microsoft.Azure.Cosmos;

namespace SensorPipeline.CosmosEmulator.Tests;

/// <summary>One emulator process and one client (as an application creates once) shared by a test class; each test
/// works in its own container.</summary>
public sealed class EmulatorFixture : IAsyncLifetime
{
    private CosmosEmulatorProcess _emulator = null!;

    internal CosmosEmulatorProcess Emulator => _emulator;

    public CosmosClient Client { get; private set; } = null!;

    public Database Database { get; private set; } = null!;

    public async Task InitializeAsync()
    {
        _emulator = await CosmosEmulatorProcess.StartAsync();
        Client = _emulator.CreateClient();
        Database = await Client.CreateDatabaseIfNotExistsAsync("tests");
    }

    /// <summary>A new container keyed on <c>/deviceId</c> with the given TTL and a spatial index on <c>/location/?</c>.</summary>
    public async Task<Container> NewContainerAsync(int? defaultTtl = null)
    {
        var properties = new ContainerProperties(Guid.NewGuid().ToString("N"), "/deviceId") { DefaultTimeToLive = defaultTtl };
        properties.IndexingPolicy.SpatialIndexes.Add(new SpatialPath { Path = "/location/?", SpatialTypes = { SpatialType.Point } });
        return await Database.CreateContainerAsync(properties);
    }

    public async Task DisposeAsync()
    {
        Client?.Dispose();
        await _emulator.DisposeAsync();
    }
}
