using System.Text.RegularExpressions;

namespace SensorPipeline.Toolkit;

/// <summary>The Cosmos DB stand-in (devhost/cosmos-standin/server.cjs over @vercel/cosmosdb-server, in memory, TLS with a
/// self-signed certificate) on a free loopback port; disposing kills it and its data.</summary>
public sealed partial class CosmosStandInProcess : IAsyncDisposable, IDisposable
{
    private CosmosStandInProcess(ChildProcess process, Uri endpoint)
    {
        Process = process;
        Endpoint = endpoint;
    }

    public ChildProcess Process { get; }

    /// <summary>The account endpoint, <c>https://127.0.0.1:PORT/</c>.</summary>
    public Uri Endpoint { get; }

    /// <summary>Starts the stand-in and waits until it listens. <paramref name="maxCapturedLines"/> bounds what is kept
    /// in memory: it prints a stack trace for every read of a missing document.</summary>
    public static async Task<CosmosStandInProcess> StartAsync(RepoLayout? layout = null, string? logPath = null, bool echo = false,
        int maxCapturedLines = 1000, CancellationToken cancellationToken = default)
    {
        layout ??= RepoLayout.Current;
        await EnsureNodeModulesAsync(layout, cancellationToken);
        var process = ChildProcess.Start(new ChildProcessOptions
        {
            Name = "cosmos",
            FileName = "node",
            Arguments = [layout.CosmosStandInScript, "0"],
            WorkingDirectory = layout.Root,
            LogPath = logPath,
            Echo = echo,
            MaxCapturedLines = maxCapturedLines,
        });
        try
        {
            return new CosmosStandInProcess(process, await process.WaitForUrlAsync(Announce(), TimeSpan.FromSeconds(60), cancellationToken));
        }
        catch
        {
            await process.DisposeAsync();
            throw;
        }
    }

    /// <summary>SIGSTOP: the store keeps its data and connections but answers nothing (an outage without data loss).</summary>
    public void Freeze() => Process.Freeze();

    /// <summary>SIGCONT: it answers again.</summary>
    public void Thaw() => Process.Thaw();

    public ValueTask DisposeAsync() => Process.DisposeAsync();

    public void Dispose() => Process.Dispose();

    private static readonly SemaphoreSlim NpmGate = new(1, 1);

    private static async Task EnsureNodeModulesAsync(RepoLayout layout, CancellationToken cancellationToken)
    {
        var module = Path.Combine(layout.Root, "node_modules", "@vercel", "cosmosdb-server");
        if (Directory.Exists(module))
        {
            return;
        }

        // ./pipeline runs `npm ci`; a fresh clone run from an IDE gets it here, once: fixtures start in parallel, and two
        // `npm ci` in one folder break each other.
        await NpmGate.WaitAsync(cancellationToken);
        try
        {
            if (!Directory.Exists(module))
            {
                await RunNpmCiAsync(layout, cancellationToken);
            }
        }
        finally
        {
            NpmGate.Release();
        }
    }

    private static async Task RunNpmCiAsync(RepoLayout layout, CancellationToken cancellationToken)
    {
        await using var npm = await ChildProcess.RunAsync(new ChildProcessOptions
        {
            FileName = "npm",
            Arguments = ["ci", "--no-audit", "--no-fund"],
            WorkingDirectory = layout.Root,
        }, TimeSpan.FromMinutes(5), cancellationToken);
        if (npm.ExitCode != 0)
        {
            throw new InvalidOperationException($"npm ci failed in {layout.Root}:\n{npm.Output}");
        }
    }

    [GeneratedRegex(@"listening on (?<url>https://127\.0\.0\.1:\d+/)")]
    private static partial Regex Announce();
}
