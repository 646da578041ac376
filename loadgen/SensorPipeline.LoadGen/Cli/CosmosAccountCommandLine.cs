using System.CommandLine;
using SensorPipeline.LoadGen.Verify;

namespace SensorPipeline.LoadGen.Cli;

/// <summary>The options of <see cref="CosmosAccountOptions"/> for a command that reads the store (verify, redrive), with
/// one binding, so both fall back to the handler's settings alike. Each command makes its own instance.</summary>
internal sealed class CosmosAccountCommandLine
{
    public Option<Uri?> Endpoint { get; } = SharedOptions.CosmosEndpoint();

    public Option<string?> Key { get; } = SharedOptions.CosmosKey();

    public Option<string?> ClientId { get; } = new("--managed-identity-client-id")
    {
        Description = "User-assigned identity for Microsoft Entra (default: env Cosmos__ManagedIdentityClientId).",
    };

    public Option<string> Database { get; } = new("--database") { Description = "Database (or env Cosmos__DatabaseName).", DefaultValueFactory = _ => "sensorpipeline" };

    public Option<string> DeadLetters { get; } = new("--deadletters-container")
    {
        Description = "Dead letters container (or env Cosmos__DeadLettersContainer).", DefaultValueFactory = _ => "deadletters",
    };

    /// <summary>Every option, in help order.</summary>
    public IEnumerable<Option> All => [Endpoint, Key, ClientId, Database, DeadLetters];

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
