using System.Diagnostics;
using System.Text.RegularExpressions;

namespace SensorPipeline.Functions.Tests.Infrastructure;

/// <summary>The Cosmos DB stand-in (@vercel/cosmosdb-server, in memory) on a free loopback port.</summary>
internal sealed partial class CosmosStandIn : IDisposable
{
    /// <summary>The well-known emulator key: the stand-in checks no signature, any base64 key works.</summary>
    public const string EmulatorKey = "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==";

    private readonly ChildProcess _process;

    private CosmosStandIn(ChildProcess process, Uri endpoint)
    {
        _process = process;
        Endpoint = endpoint;
    }

    public Uri Endpoint { get; }

    public static async Task<CosmosStandIn> StartAsync()
    {
        EnsureNodeModules();
        var script = Path.Combine(RepoPaths.Root, "devhost", "cosmos-standin", "server.cjs");
        var process = ChildProcess.Start("node", [script, "0"], new Dictionary<string, string?>(), Announce());
        try
        {
            return new CosmosStandIn(process, await process.WaitForUrlAsync(TimeSpan.FromSeconds(30)));
        }
        catch
        {
            process.Dispose();
            throw;
        }
    }

    public void Freeze() => _process.Freeze();

    public void Thaw() => _process.Thaw();

    public void Dispose() => _process.Dispose();

    private static void EnsureNodeModules()
    {
        if (Directory.Exists(Path.Combine(RepoPaths.Root, "node_modules", "@vercel", "cosmosdb-server")))
        {
            return;
        }

        // CI runs `npm ci` through ./pipeline; a fresh clone run from an IDE gets it here, once.
        using var npm = Process.Start(new ProcessStartInfo("npm", "ci --no-audit --no-fund") { WorkingDirectory = RepoPaths.Root })!;
        if (!npm.WaitForExit(TimeSpan.FromMinutes(5)) || npm.ExitCode != 0)
        {
            throw new InvalidOperationException("npm ci failed in " + RepoPaths.Root);
        }
    }

    [GeneratedRegex(@"listening on (?<url>https://127\.0\.0\.1:\d+/)")]
    private static partial Regex Announce();
}
