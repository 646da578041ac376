namespace SensorPipeline.LoadGen.Store;

/// <summary>The Cosmos DB account and database a command reads (option names in brackets), the same for
/// <c>loadgen verify</c> and <c>loadgen redrive</c>; checked by <see cref="CosmosAccountValidation"/>.</summary>
internal abstract class CosmosAccountOptions
{
    /// <summary>Cosmos DB account endpoint [--cosmos-endpoint, or env Cosmos__AccountEndpoint]. Required.</summary>
    public Uri? CosmosEndpoint { get; set; }

    /// <summary>Account key [--cosmos-key, or env Cosmos__AuthKey]. Default: the emulator key for a loopback endpoint,
    /// otherwise unset = Microsoft Entra (DefaultAzureCredential).</summary>
    public string? CosmosKey { get; set; }

    /// <summary>User-assigned identity's client id for DefaultAzureCredential [--managed-identity-client-id, or env
    /// Cosmos__ManagedIdentityClientId]. Default unset.</summary>
    public string? ManagedIdentityClientId { get; set; }

    /// <summary>Database [--database, or env Cosmos__DatabaseName]. Default <c>sensorpipeline</c> (docs/conventions.md).</summary>
    public string Database { get; set; } = "sensorpipeline";

    /// <summary>Dead letters container [--deadletters-container, or env Cosmos__DeadLettersContainer]. Default <c>deadletters</c>.</summary>
    public string DeadLettersContainer { get; set; } = "deadletters";

    /// <summary>True for a loopback endpoint: the local emulator, whose key is the default and whose certificate is accepted.</summary>
    public bool IsLoopback => CosmosEndpoint is { IsLoopback: true };
}
