using System.Net;
using Microsoft.Azure.Cosmos;
using SensorPipeline.LoadGen.Verify;

namespace SensorPipeline.LoadGen.Tests;

/// <summary>The real local Cosmos DB emulator (devhost/SensorPipeline.CosmosEmulator, its own process) on a free
/// loopback port over a fresh data directory, shared by the verify tests; each test uses its own database.</summary>
public sealed class CosmosStandIn : IAsyncLifetime
{
    private readonly string _data = Path.Combine(Path.GetTempPath(), "sensorpipeline-cosmos", Guid.NewGuid().ToString("N"));
    private ServerProcess _server = null!;

    public Uri Endpoint => _server.Url;

    public CosmosClient Client { get; private set; } = null!;

    public async Task InitializeAsync()
    {
        var testOutput = new DirectoryInfo(AppContext.BaseDirectory.TrimEnd(Path.DirectorySeparatorChar));
        var emulator = Path.Combine(testOutput.Parent!.Parent!.FullName, "SensorPipeline.CosmosEmulator", testOutput.Name, "SensorPipeline.CosmosEmulator.dll");
        _server = await ServerProcess.StartAsync("dotnet", [emulator, "--data", _data, "--port", "0"], "cosmos emulator listening on ", Repo.Root);
        // The same client set-up verify uses (Gateway, LimitToEndpoint, self-signed certificate).
        Client = CosmosClientFactory.Create(new VerifyOptions { CosmosEndpoint = Endpoint });
    }

    public async Task DisposeAsync()
    {
        Client?.Dispose();
        await _server.DisposeAsync();
        try
        {
            Directory.Delete(_data, recursive: true);
        }
        catch (IOException)
        {
            // A temporary directory left behind is harmless.
        }
    }

    /// <summary>Creates a database with the four containers, keyed as docs/conventions.md says.</summary>
    public async Task<Database> CreateDatabaseAsync(string name)
    {
        Database database = await Client.CreateDatabaseIfNotExistsAsync(name);
        foreach (var (container, key) in new[] { ("readings", "/deviceId"), ("archive", "/deviceId"), ("devices", "/deviceId"), ("deadletters", "/id") })
        {
            await database.CreateContainerIfNotExistsAsync(container, key);
        }

        return database;
    }

    public static async Task UpsertAsync(Container container, byte[] document, string partitionKey)
    {
        using var stream = new MemoryStream(document);
        using var response = await container.UpsertItemStreamAsync(stream, new PartitionKey(partitionKey));
        Assert.True(response.StatusCode is HttpStatusCode.Created or HttpStatusCode.OK, $"upsert: {response.StatusCode} {response.ErrorMessage}");
    }
}
