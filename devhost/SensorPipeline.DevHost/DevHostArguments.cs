namespace SensorPipeline.DevHost;

/// <summary>The devhost command line:
/// <c>--app-root &lt;dir&gt; --data &lt;dir&gt; [--port N] [--hubs &lt;file&gt;] [--set Key=Value]…</c>.
/// <c>--set</c> passes any configuration key (e.g. <c>--set EventHubs:Durability=None</c>), the same keys as
/// environment variables with <c>__</c> (<c>EventHubs__Durability=None</c>).</summary>
/// <param name="AppRoot">The directory with host.json (and eventhubs.emulator.json unless --hubs says otherwise).</param>
/// <param name="DataDirectory">Where devhost keeps its state (the emulator's logs under <c>eventhubs/</c>).</param>
/// <param name="Port">The loopback port; 0 picks a free one. Default 7071 (the Functions host's usual local port).</param>
/// <param name="HubsFile">The namespace config. Default <c>&lt;app-root&gt;/eventhubs.emulator.json</c>.</param>
/// <param name="Settings">Configuration overrides from <c>--set</c>.</param>
public sealed record DevHostArguments(string AppRoot, string DataDirectory, int Port, string HubsFile, IReadOnlyDictionary<string, string?> Settings)
{
    public const int DefaultPort = 7071;

    public const string Usage =
        "usage: devhost --app-root <dir> --data <dir> [--port N] [--hubs <file>] [--set Key=Value]...\n" +
        "       devhost status [--url http://127.0.0.1:PORT]";

    /// <summary>The emulator's directory inside <see cref="DataDirectory"/>.</summary>
    public string EventHubsDataDirectory => Path.Combine(DataDirectory, "eventhubs");

    /// <summary>Parses the arguments (<see cref="CommandLine"/>); on failure returns null and a message for stderr.</summary>
    public static DevHostArguments? Parse(IReadOnlyList<string> args, out string? error)
    {
        if (CommandLine.Parse(args, ["--app-root", "--data", "--hubs"], Usage, out error) is not { } line)
        {
            return null;
        }

        if (line["--app-root"] is not { } appRoot || line["--data"] is not { } data)
        {
            error = $"--app-root and --data are required.\n{Usage}";
            return null;
        }

        if (ExistingAppRoot(appRoot, out error) is not { } root)
        {
            return null;
        }

        var hubs = line["--hubs"] ?? Path.Combine(root, "eventhubs.emulator.json");
        return new DevHostArguments(root, Path.GetFullPath(data), line.Port ?? DefaultPort, Path.GetFullPath(hubs), line.Settings);
    }

    /// <summary>The full path of <c>--app-root</c>; null, with the message for stderr, when no such directory exists.</summary>
    internal static string? ExistingAppRoot(string appRoot, out string? error)
    {
        if (!Directory.Exists(appRoot))
        {
            error = $"--app-root: the directory '{appRoot}' does not exist.";
            return null;
        }

        error = null;
        return Path.GetFullPath(appRoot);
    }
}
