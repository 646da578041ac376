using System.Net.Http.Json;
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

    /// <summary>Turns an emulator switch on: <c>POST</c> of <paramref name="body"/> (a fault on <c>_emulator/faults</c>),
    /// or <c>PUT</c> with no body (<c>_emulator/disk-full</c>). Disposing the result turns it off (<c>DELETE</c> on the
    /// same path), so a failed assertion never leaves the switch on for the next test in the class.</summary>
    internal async Task<IAsyncDisposable> SwitchOnAsync(string path, object? body = null)
    {
        var admin = CosmosClients.EmulatorAdminClient(_emulator.Endpoint);
        try
        {
            using var on = body is null ? await admin.PutAsync(path, null) : await admin.PostAsJsonAsync(path, body);
            Assert.Equal(HttpStatusCode.NoContent, on.StatusCode);
            return new SwitchOff(admin, path);
        }
        catch
        {
            admin.Dispose();
            throw;
        }
    }

    public async Task DisposeAsync()
    {
        Client?.Dispose();
        await _emulator.DisposeAsync();
    }

    private sealed class SwitchOff(HttpClient admin, string path) : IAsyncDisposable
    {
        public async ValueTask DisposeAsync()
        {
            using var off = await admin.DeleteAsync(path);
            admin.Dispose();
        }
    }
}
