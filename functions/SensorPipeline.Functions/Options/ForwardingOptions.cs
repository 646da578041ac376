using SensorPipeline.Core.Readings;

namespace SensorPipeline.Functions.Options;

/// <summary>
/// Where the splitter sends its envelopes. The connection is the one every trigger names (<c>"connection":
/// "EventHubConnection"</c> in function.json), read from the same app settings the Functions host reads; the hub names
/// are the ones each processor's function.json resolves from its kind's hub setting (<c>%WeatherHubName%</c>; sensor-kinds.json).
/// </summary>
internal sealed class ForwardingOptions
{
    public const string ConnectionKey = "EventHubConnection";
    public const string NamespaceKey = "EventHubConnection:fullyQualifiedNamespace";
    public const string ClientIdKey = "EventHubConnection:clientId";
    public const string Section = "Forwarding";

    /// <summary>
    /// Local: the emulator's connection string (<c>EventHubConnection</c>, with <c>UseDevelopmentEmulator=true</c>).
    /// Default unset; exactly one of this and <see cref="FullyQualifiedNamespace"/> is required.
    /// </summary>
    public string? ConnectionString { get; set; }

    /// <summary>
    /// Azure: the namespace's host name (<c>EventHubConnection__fullyQualifiedNamespace</c>, e.g.
    /// <c>ns.servicebus.windows.net</c>); the handler signs in with its managed identity. Default unset.
    /// </summary>
    public string? FullyQualifiedNamespace { get; set; }

    /// <summary>Azure: the user-assigned identity's client id (<c>EventHubConnection__clientId</c>). Default unset.</summary>
    public string? ClientId { get; set; }

    /// <summary>
    /// Each kind's hub by kind name, read from the kind's hub setting (<c>WeatherHubName</c>: sensor-kinds.json's
    /// <c>hubSetting</c>). Default: the kind's <c>hub</c> (<c>weather</c>).
    /// </summary>
    public Dictionary<string, string?> HubNames { get; } =
        SensorKindCatalog.Default.All.ToDictionary(static k => k.Name, static string? (k) => k.Hub, StringComparer.Ordinal);

    /// <summary>
    /// Partitions one splitter invocation sends to at once, per hub (<c>Forwarding__MaxConcurrentSends</c>). Each send
    /// is one AMQP transfer on the client's one connection. Default 8; 1 to 64.
    /// </summary>
    public int MaxConcurrentSends { get; set; } = 8;

    /// <summary>
    /// Attempts the client makes for one send or one metadata read before the invocation fails and the host's retry
    /// policy re-runs the batch (<c>Forwarding__MaxRetries</c>, the SDK's retries after the first attempt). Default 3; 0 to 10.
    /// </summary>
    public int MaxRetries { get; set; } = 3;

    /// <summary>
    /// The longest one send attempt may take (<c>Forwarding__TryTimeout</c>). Default 00:00:30; 1 second to 5 minutes.
    /// </summary>
    public TimeSpan TryTimeout { get; set; } = TimeSpan.FromSeconds(30);
}
