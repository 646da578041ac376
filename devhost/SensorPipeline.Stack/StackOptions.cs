namespace SensorPipeline.Stack;

/// <summary>How to start the local pipeline.</summary>
public sealed class StackOptions
{
    /// <summary>Function app root devhost reads (host.json, function folders, local.settings.json). Default: a prepared copy under <see cref="DataDirectory"/>.</summary>
    public string? AppRoot { get; init; }

    /// <summary>True: azurite logs every Storage request to <c>logs/azurite-requests.log</c> (its debug log), which
    /// <see cref="AzuriteRequestLog"/> counts (<c>bench cost</c>). Default false: the log grows with every request.</summary>
    public bool LogStorageRequests { get; init; }

    /// <summary>Where devhost keeps its event log and checkpoints, and where logs go. Required.</summary>
    public required string DataDirectory { get; init; }

    /// <summary>devhost's port; 0 picks a free one. Default 0.</summary>
    public int DevHostPort { get; init; }

    /// <summary>devhost's extra plain-AMQP port (used only when free), so Microsoft's emulator connection string
    /// (port 5672) works too. Default 0: none (tests); <c>./pipeline up</c> passes 5672.</summary>
    public int AmqpPort { get; init; }

    /// <summary><c>Pipeline__MaxAge</c> for the handler; null keeps the app's setting (5 minutes).</summary>
    public TimeSpan? MaxAge { get; init; }

    /// <summary>Metric aggregation period, so the dashboard is live. Default 2 s.</summary>
    public TimeSpan MetricFlushInterval { get; init; } = TimeSpan.FromSeconds(2);

    /// <summary>Cosmos database name. Default <c>sensorpipeline</c>.</summary>
    public string DatabaseName { get; init; } = "sensorpipeline";

    /// <summary>Echo the children's output to stderr.</summary>
    public bool Echo { get; init; }

    /// <summary>Extra environment for devhost and, through it, the handler (the environment wins over local.settings.json).</summary>
    public IReadOnlyDictionary<string, string> Environment { get; init; } = new Dictionary<string, string>();

    /// <summary>Functions-host instances per function, each its own process with its own handler, against devhost's
    /// hubs (devhost then only observes); null (the default) runs the one in-process host that owns every partition.</summary>
    public InstanceCount? Instances { get; init; }

    /// <summary>Settings every instance gets (<c>Key=Value</c>), e.g. shorter ownership intervals. Default none: the
    /// app's host.json and the Event Hubs processor's defaults (30 s cycle, 2 min expiration).</summary>
    public IReadOnlyList<string> InstanceSettings { get; init; } = [];

    /// <summary>Real Azure resources for the Functions host and the handler instead of the local emulators
    /// (<c>up --eventhubs/--storage/--cosmos</c>); null, or null members, keep the local ones.</summary>
    public RealAzure? Azure { get; init; }

    /// <summary>How the scaler decides under <c>--instances auto</c>.</summary>
    public TargetScalerOptions Scaler { get; init; } = new();
}
