using SensorPipeline.Core.Readings;
using SensorPipeline.LoadGen.Store;
using SensorPipeline.Redrive;

namespace SensorPipeline.LoadGen.Redrive;

/// <summary><c>loadgen redrive</c>'s settings (option names in brackets), beside the account and database of
/// <see cref="CosmosAccountOptions"/>; validated at start by <see cref="RedriveOptionsValidator"/>. At least one selector
/// (<see cref="Reasons"/>, <see cref="Since"/>, <see cref="Until"/>, <see cref="Ids"/>) is required, so nobody re-sends
/// every dead letter by accident.</summary>
internal sealed class RedriveOptions : CosmosAccountOptions
{
    /// <summary>Event Hubs connection string [--connection, or env EventHubConnection]. One of this or
    /// <see cref="Namespace"/> is required; its EntityPath, if any, is ignored (each dead letter names its hub).</summary>
    public string? Connection { get; set; }

    /// <summary>Namespace host name for Microsoft Entra auth [--namespace, or env EventHubConnection__fullyQualifiedNamespace].</summary>
    public string? Namespace { get; set; }

    /// <summary>The splitter's input hub [--ingestion-hub, or env IngestionHubName]. Default <c>ingestion</c>.</summary>
    public string IngestionHub { get; set; } = "ingestion";

    /// <summary>
    /// Each kind's processor hub by kind name [--weather-hub, or env WeatherHubName: one option and setting per kind of
    /// sensor-kinds.json]. Default: the kind's hub (<c>weather</c>).
    /// </summary>
    public Dictionary<string, string> KindHubs { get; } = SensorKindCatalog.Default.All.ToDictionary(static k => k.Name, static k => k.Hub, StringComparer.Ordinal);

    /// <summary>Reason codes to select [--reason, repeatable], e.g. <c>invalid-observed-at</c>. Default none (any reason).</summary>
    public IReadOnlyList<string> Reasons { get; set; } = [];

    /// <summary>Only dead letters stored at or after this time [--since, ISO 8601]. Default unset.</summary>
    public DateTimeOffset? Since { get; set; }

    /// <summary>Only dead letters stored before this time [--until, ISO 8601]. Default unset.</summary>
    public DateTimeOffset? Until { get; set; }

    /// <summary>Dead letter ids to select [--id, repeatable]. Default none.</summary>
    public IReadOnlyList<string> Ids { get; set; } = [];

    /// <summary>List what would be sent; send and mark nothing [--dry-run]. Default false.</summary>
    public bool DryRun { get; set; }

    /// <summary>Also re-send dead letters already marked re-driven [--again]. Default false.</summary>
    public bool Again { get; set; }

    /// <summary>HTTP attempts per event [--max-attempts], 1..100. Default 6.</summary>
    public int MaxAttempts { get; set; } = 6;

    /// <summary>The selection these options make, for the shared <see cref="DeadLetterRedriver"/>.</summary>
    public RedriveSelection ToSelection() => new()
    {
        Ids = Ids, Reasons = Reasons, Since = Since, Until = Until, DryRun = DryRun, Again = Again,
        IngestionHub = IngestionHub, KindHubs = KindHubs,
    };
}
