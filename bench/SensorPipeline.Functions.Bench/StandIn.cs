using System.Diagnostics;
using System.Text.RegularExpressions;

namespace SensorPipeline.Functions.Bench;

/// <summary>The Cosmos DB stand-in started from devhost/cosmos-standin/server.cjs on a free loopback port.</summary>
internal sealed partial class StandIn : IDisposable
{
    private readonly Process _process;

    private StandIn(Process process, Uri endpoint)
    {
        _process = process;
        Endpoint = endpoint;
    }

    public Uri Endpoint { get; }

    public int ProcessId => _process.Id;

    public static async Task<StandIn> StartAsync(string repoRoot)
    {
        // stderr is drained and dropped: the stand-in prints a stack trace for every read of a missing document (its 500).
        var start = new ProcessStartInfo("node") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false, WorkingDirectory = repoRoot };
        start.ArgumentList.Add(Path.Combine(repoRoot, "devhost", "cosmos-standin", "server.cjs"));
        start.ArgumentList.Add("0");
        var process = Process.Start(start) ?? throw new InvalidOperationException("node did not start");
        process.ErrorDataReceived += static (_, _) => { };
        process.BeginErrorReadLine();
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(30));
        while (await process.StandardOutput.ReadLineAsync(timeout.Token) is { } line)
        {
            if (Announce().Match(line) is { Success: true } match)
            {
                return new StandIn(process, new Uri(match.Groups["url"].Value));
            }
        }

        process.Kill();
        process.Dispose();
        throw new InvalidOperationException("The stand-in exited before announcing its URL (run npm ci in the repository root).");
    }

    public void Dispose()
    {
        _process.Kill();
        _process.WaitForExit(5000);
        _process.Dispose();
    }

    [GeneratedRegex(@"listening on (?<url>https://127\.0\.0\.1:\d+/)")]
    private static partial Regex Announce();
}
