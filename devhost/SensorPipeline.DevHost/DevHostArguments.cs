namespace SensorPipeline.DevHost;

/// <summary>What devhost runs with (<see cref="DevHostCommandLine"/> reads it from the command line).</summary>
/// <param name="AppRoot">The directory with host.json (and eventhubs.emulator.json unless --hubs says otherwise).</param>
/// <param name="DataDirectory">Where devhost keeps its state (the emulator's logs under <c>eventhubs/</c>).</param>
/// <param name="Port">The loopback port; 0 picks a free one. Default 7071 (the Functions host's usual local port).</param>
/// <param name="HubsFile">The namespace config. Default <c>&lt;app-root&gt;/eventhubs.emulator.json</c>.</param>
/// <param name="Settings">Configuration overrides from <c>--set</c>.</param>
public sealed record DevHostArguments(string AppRoot, string DataDirectory, int Port, string HubsFile, IReadOnlyDictionary<string, string?> Settings)
{
    public const int DefaultPort = 7071;

    /// <summary>The emulator's directory inside <see cref="DataDirectory"/>.</summary>
    public string EventHubsDataDirectory => Path.Combine(DataDirectory, "eventhubs");
}
