namespace SensorPipeline.LoadGen.Verify;

/// <summary><c>loadgen verify</c>'s settings (option names in brackets); validated at start by <see cref="VerifyOptionsValidator"/>.</summary>
internal sealed class VerifyOptions
{
    /// <summary>The run's ledger [--ledger]. Required.</summary>
    public string Ledger { get; set; } = "";

    /// <summary>Cosmos DB account endpoint [--cosmos-endpoint, or env Cosmos__AccountEndpoint]. Required.</summary>
    public Uri? CosmosEndpoint { get; set; }

    /// <summary>Account key [--cosmos-key, or env Cosmos__AuthKey]. Default: the emulator key for a loopback endpoint,
    /// otherwise unset = Microsoft Entra (DefaultAzureCredential).</summary>
    public string? CosmosKey { get; set; }

    /// <summary>User-assigned identity's client id for DefaultAzureCredential [--managed-identity-client-id]. Default unset.</summary>
    public string? ManagedIdentityClientId { get; set; }

    /// <summary>Database [--database]. Default <c>sensorpipeline</c> (docs/conventions.md).</summary>
    public string Database { get; set; } = "sensorpipeline";

    /// <summary>Live readings container [--readings-container]. Default <c>readings</c>.</summary>
    public string ReadingsContainer { get; set; } = "readings";

    /// <summary>Stale readings container [--archive-container]. Default <c>archive</c>.</summary>
    public string ArchiveContainer { get; set; } = "archive";

    /// <summary>Latest-state container [--devices-container]. Default <c>devices</c>.</summary>
    public string DevicesContainer { get; set; } = "devices";

    /// <summary>Dead letters container [--deadletters-container]. Default <c>deadletters</c>.</summary>
    public string DeadLettersContainer { get; set; } = "deadletters";

    /// <summary>Readings checked at once [--concurrency], 1..512; each check is two point reads. Default 64.</summary>
    public int Concurrency { get; set; } = 64;

    /// <summary>Print the verdict as JSON instead of a table [--json]. Default false.</summary>
    public bool Json { get; set; }

    /// <summary>How often progress is printed (stderr) [--progress-interval]. Default 2 s.</summary>
    public TimeSpan ProgressInterval { get; set; } = TimeSpan.FromSeconds(2);

    /// <summary>The pipeline's max age [--max-age], more than zero: when set, archived readings enqueued outside the run's
    /// backlog episodes (and the max age before each) are counted as <see cref="Verdict.StaleOutsideEpisodes"/>. Default unset.</summary>
    public TimeSpan? MaxAge { get; set; }

    /// <summary>Backlog episodes the ledger does not record [--episode START/END, repeatable], judged like the ledger's own
    /// pauses: an instance killed by the demo until its partitions were owned again. Needs <see cref="MaxAge"/>. Default none.</summary>
    public IReadOnlyList<(DateTimeOffset From, DateTimeOffset To)> Episodes { get; set; } = [];

    /// <summary>True for a loopback endpoint: the local emulator, whose key is the default and whose certificate is accepted.</summary>
    public bool IsLoopback => CosmosEndpoint is { IsLoopback: true };
}
