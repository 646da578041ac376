using System.Globalization;

namespace SensorPipeline.CosmosEmulator.Hosting;

/// <summary>The emulator's command line: <c>--data &lt;dir&gt; [--port N] [--set Key=Value]…</c>.
/// <c>--set</c> passes any configuration key (e.g. <c>--set Cosmos:Durability=None</c>), the same keys as
/// environment variables with <c>__</c> (<c>Cosmos__Durability=None</c>).</summary>
/// <param name="DataDirectory">Where the emulator keeps its log, snapshot and certificate.</param>
/// <param name="Port">The loopback HTTPS port; 0 picks a free one. Default 8081 (the Cosmos DB emulator's port).</param>
/// <param name="Settings">Configuration overrides from <c>--set</c>.</param>
public sealed record EmulatorArguments(string DataDirectory, int Port, IReadOnlyDictionary<string, string?> Settings)
{
    public const int DefaultPort = 8081;

    public const string Usage = "usage: cosmos-emulator --data <dir> [--port N] [--set Key=Value]...";

    /// <summary>Parses the arguments; on failure returns null and a message for stderr.</summary>
    public static EmulatorArguments? Parse(IReadOnlyList<string> args, out string? error)
    {
        ArgumentNullException.ThrowIfNull(args);
        string? data = null;
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
                case "--data":
                    data = value;
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

        if (data is null)
        {
            error = $"--data is required.\n{Usage}";
            return null;
        }

        error = null;
        return new EmulatorArguments(Path.GetFullPath(data), port, settings);
    }
}
