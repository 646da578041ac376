using System.CommandLine;

namespace SensorPipeline.LoadGen.Cli;

/// <summary>The options more than one command takes, defined once so their names, help and parsing agree; each command
/// gets instances of its own.</summary>
internal static class SharedOptions
{
    public static Option<string?> Connection() => new("--connection") { Description = "Event Hubs connection string (default: env EventHubConnection)." };

    public static Option<Uri?> CosmosEndpoint() => new("--cosmos-endpoint") { Description = "Cosmos DB endpoint (default: env Cosmos__AccountEndpoint).", CustomParser = UriParser.Parse };

    public static Option<string?> CosmosKey() => new("--cosmos-key") { Description = "Account key (default: env Cosmos__AuthKey; the emulator key on loopback; else Microsoft Entra)." };
}
