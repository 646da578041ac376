using SensorPipeline.Emulators.Common;

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

    /// <summary>Parses the arguments (<see cref="CommandLine"/>); on failure returns null and a message for stderr.</summary>
    public static EmulatorArguments? Parse(IReadOnlyList<string> args, out string? error)
    {
        if (CommandLine.Parse(args, ["--data"], Usage, out error) is not { } line)
        {
            return null;
        }

        if (line["--data"] is not { } data)
        {
            error = $"--data is required.\n{Usage}";
            return null;
        }

        return new EmulatorArguments(Path.GetFullPath(data), line.Port ?? DefaultPort, line.Settings);
    }
}
