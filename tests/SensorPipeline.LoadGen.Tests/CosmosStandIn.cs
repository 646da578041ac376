using System.Net;
using Microsoft.Azure.Cosmos;
using SensorPipeline.LoadGen.Store;
using SensorPipeline.LoadGen.Verify;

namespace SensorPipeline.LoadGen.Tests;

/// <summary>The real local Cosmos DB emulator (its own process, a fresh data directory) on a free loopback port, shared by the verify tests; each test uses its own database.</summary>
public sealed class CosmosStandIn : IAsyncLifetime
{
    private CosmosEmulatorProcess _server = null!;

    public Uri Endpoint => _server.Endpoint;

    public CosmosClient Client { get; private set; } = null!;

    public async Task InitializeAsync()
    {
        _server = await CosmosEmulatorProcess.StartAsync();
        Client = ClientFor(Endpoint);
    }

    /// <summary>A client on <paramref name="endpoint"/> set up as verify's (Gateway, LimitToEndpoint, self-signed
    /// certificate, connections for its default concurrency); the caller disposes it.</summary>
    public static CosmosClient ClientFor(Uri endpoint)
    {
        var options = new VerifyOptions { CosmosEndpoint = endpoint };
        return CosmosAccountClient.Create(options, "sensorpipeline-loadgen-tests", requestsInFlight: options.Concurrency * 2);
    }

    public async Task DisposeAsync()
    {
        Client?.Dispose();
        await _server.DisposeAsync();
    }

    /// <summary>Creates a database with the four containers, keyed as docs/conventions.md says.</summary>
    public Task<Database> CreateDatabaseAsync(string name) => CreateDatabaseAsync(Client, name);

    /// <summary>Creates a database with the four containers on any Cosmos DB endpoint <paramref name="client"/> reaches.</summary>
    public static async Task<Database> CreateDatabaseAsync(CosmosClient client, string name)
    {
        ArgumentNullException.ThrowIfNull(client);
        Database database = await client.CreateDatabaseIfNotExistsAsync(name);
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
