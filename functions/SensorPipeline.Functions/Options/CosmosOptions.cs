namespace SensorPipeline.Functions.Options;

/// <summary>Where and how the handler writes to Cosmos DB (configuration section <c>Cosmos</c>).</summary>
internal sealed class CosmosOptions
{
    public const string Section = "Cosmos";

    /// <summary>
    /// The account endpoint: <c>https://&lt;account&gt;.documents.azure.com:443/</c>, or the local Cosmos DB emulator's loopback URL.
    /// Required; no default.
    /// </summary>
    public Uri? AccountEndpoint { get; set; }

    /// <summary>
    /// Local only: the account key (the well-known emulator key). Default unset: in Azure the handler signs in
    /// with its managed identity instead.
    /// </summary>
    public string? AuthKey { get; set; }

    /// <summary>Azure: client id of the user-assigned managed identity for <c>DefaultAzureCredential</c>. Default unset.</summary>
    public string? ManagedIdentityClientId { get; set; }

    /// <summary>Database name. Default <c>sensorpipeline</c>.</summary>
    public string DatabaseName { get; set; } = "sensorpipeline";

    /// <summary>Live GeoJSON readings, partition key <c>/deviceId</c>. Default <c>readings</c>.</summary>
    public string ReadingsContainer { get; set; } = "readings";

    /// <summary>Latest state per device, partition key <c>/deviceId</c>. Default <c>devices</c>.</summary>
    public string DevicesContainer { get; set; } = "devices";

    /// <summary>Stale readings, partition key <c>/deviceId</c>. Default <c>archive</c>.</summary>
    public string ArchiveContainer { get; set; } = "archive";

    /// <summary>Dead letters, partition key <c>/id</c> (one bad producer cannot make a hot partition). Default <c>deadletters</c>.</summary>
    public string DeadLettersContainer { get; set; } = "deadletters";

    /// <summary>
    /// Time to live of live readings in seconds, applied when this handler creates the <c>readings</c> container.
    /// Default 604800 (7 days); -1 keeps them forever; otherwise at least 1.
    /// </summary>
    public int ReadingsTtlSeconds { get; set; } = 604_800;

    /// <summary>Create the database and containers at start-up (local only; in Azure the infra creates them). Default false.</summary>
    public bool CreateIfNotExists { get; set; }

    /// <summary>
    /// Longest wait for one store operation before it counts as a transient failure (so a frozen store fails the
    /// invocation instead of hanging it). Default 00:00:10; 100 ms to 5 minutes.
    /// </summary>
    public TimeSpan OperationTimeout { get; set; } = TimeSpan.FromSeconds(10);

    /// <summary>
    /// How the SDK reaches the account: <c>Gateway</c> (HTTPS to the account endpoint on port 443) or <c>Direct</c> (TCP to
    /// the partitions' replicas on ports 10000–20000). Default <c>Gateway</c>: with bulk writes a request carries up to 100
    /// documents, so Direct's saving per request is spread thin, while Gateway needs one endpoint, one port and few
    /// connections (docs/writing-to-cosmos-db.md, "Direct or Gateway"). The local emulator speaks Gateway only.
    /// </summary>
    public Microsoft.Azure.Cosmos.ConnectionMode ConnectionMode { get; set; } = Microsoft.Azure.Cosmos.ConnectionMode.Gateway;
}
