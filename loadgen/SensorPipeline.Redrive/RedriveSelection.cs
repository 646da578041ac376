using SensorPipeline.Core.Readings;

namespace SensorPipeline.Redrive;

/// <summary>Which dead letters a re-drive takes, and how: at least one of <see cref="Ids"/>, <see cref="Reasons"/>,
/// <see cref="Since"/>, <see cref="Until"/>; a dry run lists and sends nothing; letters already re-driven are skipped
/// unless <see cref="Again"/>. The hub names are the configured ones.</summary>
public sealed record RedriveSelection
{
    public IReadOnlyList<string> Ids { get; init; } = [];

    public IReadOnlyList<string> Reasons { get; init; } = [];

    public DateTimeOffset? Since { get; init; }

    public DateTimeOffset? Until { get; init; }

    public bool DryRun { get; init; }

    public bool Again { get; init; }

    public string IngestionHub { get; init; } = "ingestion";

    /// <summary>Each kind's processor hub by kind name. Default: each kind's hub in sensor-kinds.json.</summary>
    public IReadOnlyDictionary<string, string> KindHubs { get; init; } =
        SensorKindCatalog.Default.All.ToDictionary(static k => k.Name, static k => k.Hub, StringComparer.Ordinal);

    /// <summary>The configured name of a hub.</summary>
    public string HubName(RedriveHub hub) => hub.Kind is { } kind ? KindHubs[kind] : IngestionHub;

    /// <summary>True when at least one selector is set.</summary>
    public bool HasSelector => Reasons.Count > 0 || Since is not null || Until is not null || Ids.Count > 0;
}

/// <summary>Sends one dead letter's bytes to its hub: null when sent, else why not (the status and the service's message).</summary>
public delegate Task<string?> RedriveSend(ReadOnlyMemory<byte> body, CancellationToken cancellationToken);
