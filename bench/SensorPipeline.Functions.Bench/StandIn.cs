using System.Diagnostics;
using System.Text.RegularExpressions;

namespace SensorPipeline.Functions.Bench;

/// <summary>The local Cosmos DB emulator (devhost/SensorPipeline.CosmosEmulator, built beside this bench) on a free
/// loopback port over a fresh data directory.</summary>
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
        var output = new DirectoryInfo(AppContext.BaseDirectory.TrimEnd(Path.DirectorySeparatorChar));
        var start = new ProcessStartInfo("dotnet") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false, WorkingDirectory = repoRoot };
        start.ArgumentList.Add(Path.Combine(output.Parent!.Parent!.FullName, "SensorPipeline.CosmosEmulator", output.Name, "SensorPipeline.CosmosEmulator.dll"));
        foreach (var arg in (string[])["--data", Path.Combine(Path.GetTempPath(), "sensorpipeline-bench-cosmos", Guid.NewGuid().ToString("N")), "--port", "0"])
        {
            start.ArgumentList.Add(arg);
        }

        var process = Process.Start(start) ?? throw new InvalidOperationException("the emulator did not start");
        process.ErrorDataReceived += static (_, _) => { };
        process.BeginErrorReadLine();
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(90));
        while (await process.StandardOutput.ReadLineAsync(timeout.Token) is { } line)
        {
            if (Announce().Match(line) is { Success: true } match)
            {
                return new StandIn(process, new Uri(match.Groups["url"].Value));
            }
        }

        process.Kill();
        process.Dispose();
        throw new InvalidOperationException("The emulator exited before announcing its URL (build devhost/SensorPipeline.CosmosEmulator).");
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
