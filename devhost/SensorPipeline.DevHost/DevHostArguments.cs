using System.Globalization;

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

    /// <summary>Parses the arguments; on failure returns null and a message for stderr.</summary>
    public static DevHostArguments? Parse(IReadOnlyList<string> args, out string? error)
    {
        ArgumentNullException.ThrowIfNull(args);
        string? appRoot = null, data = null, hubs = null;
        var port = DefaultPort;
        var settings = new Dictionary<string, string?>(StringComparer.OrdinalIgnoreCase);
        for (var i = 0; i < args.Count; i++)
        {
            var name = args[i];
            if (i + 1 >= args.Count)
            {
                error = $"{name}: a value is missing.\n{Usage}";
                return null;
            }

            var value = args[++i];
            switch (name)
            {
                case "--app-root":
                    appRoot = value;
                    break;
                case "--data":
                    data = value;
                    break;
                case "--hubs":
                    hubs = value;
                    break;
                case "--port":
                    if (!int.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out port) || port > 65535)
                    {
                        error = $"--port: '{value}' is not a port number from 0 to 65535.";
                        return null;
                    }

                    break;
                case "--set":
                    var eq = value.IndexOf('=', StringComparison.Ordinal);
                    if (eq <= 0)
                    {
                        error = $"--set: '{value}' is not Key=Value.";
                        return null;
                    }

                    settings[value[..eq]] = value[(eq + 1)..];
                    break;
                default:
                    error = $"unknown option '{name}'.\n{Usage}";
                    return null;
            }
        }

        if (appRoot is null || data is null)
        {
            error = $"--app-root and --data are required.\n{Usage}";
            return null;
        }

        if (!Directory.Exists(appRoot))
        {
            error = $"--app-root: the directory '{appRoot}' does not exist.";
            return null;
        }

        error = null;
        var root = Path.GetFullPath(appRoot);
        return new DevHostArguments(root, Path.GetFullPath(data), port, Path.GetFullPath(hubs ?? Path.Combine(root, "eventhubs.emulator.json")), settings);
    }
}
