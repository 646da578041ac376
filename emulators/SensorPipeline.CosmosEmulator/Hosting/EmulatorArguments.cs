using System.CommandLine;
using SensorPipeline.CommandLine;

namespace SensorPipeline.CosmosEmulator.Hosting;

/// <summary>What the emulator runs with: <c>--data &lt;dir&gt; [--port N] [--set Key=Value]…</c>. <c>--set</c>
/// passes any configuration key (e.g. <c>--set Cosmos:Durability=None</c>), the same keys as environment variables
/// with <c>__</c> (<c>Cosmos__Durability=None</c>).</summary>
/// <param name="DataDirectory">Where the emulator keeps its log, snapshot and certificate.</param>
/// <param name="Port">The loopback HTTPS port; 0 picks a free one. Default 8081 (the Cosmos DB emulator's port).</param>
/// <param name="Settings">Configuration overrides from <c>--set</c>.</param>
public sealed record EmulatorArguments(string DataDirectory, int Port, IReadOnlyDictionary<string, string?> Settings)
{
    public const int DefaultPort = 8081;

    /// <summary>The emulator's command; its action runs <paramref name="run"/>.</summary>
    public static RootCommand Command(Func<EmulatorArguments, Task<int>> run)
    {
        var data = new Option<string>("--data")
        {
            Description = "Where the emulator keeps its log, snapshot and certificate.",
            Required = true,
            CustomParser = result => Path.GetFullPath(result.Tokens[0].Value),
        };
        var port = Ports.Option(DefaultPort, "The loopback HTTPS port (0: a free one, printed at start).");
        var settings = SensorPipeline.CommandLine.Settings.Option();
        var root = new RootCommand("The local Cosmos DB emulator: the NoSQL API over HTTPS on loopback, durable in its data directory.").With(data, port, settings);
        root.SetAction(parse => run(new EmulatorArguments(parse.GetRequiredValue(data), parse.GetValue(port), parse.GetValue(settings)!)));
        return root;
    }
}
