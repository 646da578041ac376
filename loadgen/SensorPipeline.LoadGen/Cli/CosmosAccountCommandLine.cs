using System.CommandLine;
using SensorPipeline.LoadGen.Store;

namespace SensorPipeline.LoadGen.Cli;

/// <summary>The options of <see cref="CosmosAccountOptions"/> for a command that reads the store (verify, redrive), with
/// one binding, so both fall back to the handler's settings alike. Each command makes its own instance.</summary>
internal sealed class CosmosAccountCommandLine
{
    /// <summary>The account's endpoint [--cosmos-endpoint].</summary>
    public Option<Uri?> Endpoint { get; } = SharedOptions.CosmosEndpoint();

    /// <summary>The account key [--cosmos-key].</summary>
    public Option<string?> Key { get; } = SharedOptions.CosmosKey();

    /// <summary>The user-assigned identity for Microsoft Entra [--managed-identity-client-id].</summary>
    public Option<string?> ClientId { get; } = new("--managed-identity-client-id")
    {
        Description = "User-assigned identity for Microsoft Entra (default: env Cosmos__ManagedIdentityClientId).",
    };

    /// <summary>The database [--database].</summary>
    public Option<string> Database { get; } = SharedOptions.StoreName("--database", "Database", "Cosmos__DatabaseName", "sensorpipeline");

    /// <summary>The dead letters container [--deadletters-container]; not in <see cref="Account"/>, so each command
    /// places it among its other containers in its help.</summary>
    public Option<string> DeadLetters { get; } = SharedOptions.StoreName("--deadletters-container", "Dead letters container", "Cosmos__DeadLettersContainer", "deadletters");

    /// <summary>Every option but <see cref="DeadLetters"/>, in help order.</summary>
    public IEnumerable<Option> Account => [Endpoint, Key, ClientId, Database];

    /// <summary>Sets <paramref name="o"/>'s account and database from the command line, else the environment.</summary>
    public void Bind(ParseResult parse, CosmosAccountOptions o)
    {
        ArgumentNullException.ThrowIfNull(parse);
        ArgumentNullException.ThrowIfNull(o);
        o.CosmosEndpoint = parse.GetValue(Endpoint) ?? (Uri.TryCreate(SharedOptions.Env("Cosmos__AccountEndpoint"), UriKind.Absolute, out var fromEnv) ? fromEnv : null);
        o.CosmosKey = parse.GetValue(Key) ?? SharedOptions.Env("Cosmos__AuthKey");
        o.ManagedIdentityClientId = parse.GetValue(ClientId) ?? SharedOptions.Env("Cosmos__ManagedIdentityClientId");
        o.Database = SharedOptions.OrEnv(parse, Database, "Cosmos__DatabaseName");
        o.DeadLettersContainer = SharedOptions.OrEnv(parse, DeadLetters, "Cosmos__DeadLettersContainer");
    }
}
