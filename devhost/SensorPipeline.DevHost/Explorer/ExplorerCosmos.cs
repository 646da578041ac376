using Microsoft.Azure.Cosmos;
using SensorPipeline.Clients;

namespace SensorPipeline.DevHost.Explorer;

/// <summary>The Cosmos DB account the explorer reads: the one the handler writes to, from the same settings
/// (<c>Cosmos__AccountEndpoint</c>, <c>Cosmos__AuthKey</c>, <c>Cosmos__DatabaseName</c> and the container names, as
/// docs/conventions.md lists them), read from devhost's configuration as every devhost setting is: its environment
/// (where the stack sets them for devhost and the handler it starts) or <c>--set</c>. Only a loopback endpoint (the
/// local emulator): the explorer is a local tool. One client, created on first use.</summary>
public sealed class ExplorerCosmos(IConfiguration configuration) : IDisposable
{
    private readonly Lazy<CosmosClient?> _client = new(() => Create(configuration));

    public string DatabaseName => configuration["Cosmos:DatabaseName"] ?? "sensorpipeline";

    public string ReadingsContainer => configuration["Cosmos:ReadingsContainer"] ?? "readings";

    public string DevicesContainer => configuration["Cosmos:DevicesContainer"] ?? "devices";

    public string DeadLettersContainer => configuration["Cosmos:DeadLettersContainer"] ?? "deadletters";

    /// <summary>Why there is no account to read, or null.</summary>
    public string? Unavailable => _client.Value is null
        ? "No local Cosmos DB account: set Cosmos__AccountEndpoint (environment or --set) to the emulator's loopback URL (./pipeline up and the stack do)."
        : null;

    /// <summary>The endpoint filter of every route that reads the account: 503 with <see cref="Unavailable"/> when there
    /// is none, else the route runs.</summary>
    public static async ValueTask<object?> RequireAccount(EndpointFilterInvocationContext context, EndpointFilterDelegate next)
    {
        ArgumentNullException.ThrowIfNull(context);
        ArgumentNullException.ThrowIfNull(next);
        return context.HttpContext.RequestServices.GetRequiredService<ExplorerCosmos>().Unavailable is { } why
            ? Results.Problem(statusCode: StatusCodes.Status503ServiceUnavailable, title: "Service Unavailable", detail: why)
            : await next(context);
    }

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
