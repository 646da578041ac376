using SensorPipeline.LoadGen.Store;

namespace SensorPipeline.LoadGen.Verify;

/// <summary><c>loadgen verify</c>'s settings (option names in brackets), beside the account and database of
/// <see cref="CosmosAccountOptions"/>; validated at start by <see cref="VerifyOptionsValidator"/>.</summary>
internal sealed class VerifyOptions : CosmosAccountOptions
{
    /// <summary>The run's ledger [--ledger]. Required.</summary>
    public string Ledger { get; set; } = "";

    /// <summary>Live readings container [--readings-container, or env Cosmos__ReadingsContainer]. Default <c>readings</c>.</summary>
    public string ReadingsContainer { get; set; } = "readings";

    /// <summary>Stale readings container [--archive-container, or env Cosmos__ArchiveContainer]. Default <c>archive</c>.</summary>
    public string ArchiveContainer { get; set; } = "archive";

    /// <summary>Latest-state container [--devices-container, or env Cosmos__DevicesContainer]. Default <c>devices</c>.</summary>
    public string DevicesContainer { get; set; } = "devices";

    /// <summary>Devices checked at once [--concurrency], 1..512; each check has two queries in flight (its readings and
    /// its archived readings). Default 64.</summary>
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
}
