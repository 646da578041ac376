using Microsoft.Azure.Cosmos;
using SensorPipeline.Clients;

namespace SensorPipeline.DevHost.Explorer;

/// <summary>The Cosmos DB account the explorer reads: the one the handler writes to, from the same settings
/// (<c>Cosmos__AccountEndpoint</c>, <c>Cosmos__AuthKey</c>, <c>Cosmos__DatabaseName</c> and the container names, as
/// docs/conventions.md lists them), which devhost sees in its environment as the handler does. Only a loopback endpoint
/// (the local emulator): the explorer is a local tool. One client, created on first use.</summary>
public sealed class ExplorerCosmos(IConfiguration configuration) : IDisposable
{
    private readonly Lazy<CosmosClient?> _client = new(() => Create(configuration));

    public string DatabaseName => configuration["Cosmos:DatabaseName"] ?? "sensorpipeline";

    public string ReadingsContainer => configuration["Cosmos:ReadingsContainer"] ?? "readings";

    public string DevicesContainer => configuration["Cosmos:DevicesContainer"] ?? "devices";

    public string DeadLettersContainer => configuration["Cosmos:DeadLettersContainer"] ?? "deadletters";

    /// <summary>Why there is no account to read, or null.</summary>
    public string? Unavailable => _client.Value is null
        ? "No local Cosmos DB account: set Cosmos__AccountEndpoint to the emulator's loopback URL (./pipeline up and the stack do)."
        : null;

    public Database Database => (_client.Value ?? throw new InvalidOperationException(Unavailable)).GetDatabase(DatabaseName);

    public Container Container(string name) => Database.GetContainer(name);

    public void Dispose()
    {
        if (_client.IsValueCreated)
        {
            _client.Value?.Dispose();
        }
    }

    private static CosmosClient? Create(IConfiguration configuration) =>
        Uri.TryCreate(configuration["Cosmos:AccountEndpoint"], UriKind.Absolute, out var endpoint) && endpoint.IsLoopback
            ? CosmosClients.Create(endpoint, new CosmosClientOptions { ApplicationName = "sensorpipeline-explorer" }, configuration["Cosmos:AuthKey"])
            : null;
}
