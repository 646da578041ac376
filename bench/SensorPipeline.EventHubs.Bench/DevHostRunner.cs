using System.Diagnostics;

namespace SensorPipeline.EventHubs.Bench;

/// <summary>Starts the built devhost (same configuration as this benchmark) on a free loopback port.</summary>
internal sealed class DevHostRunner : IAsyncDisposable
{
    private readonly Process _process;
    private readonly string _directory;

    private DevHostRunner(Process process, Uri baseAddress, string directory)
    {
        _process = process;
        BaseAddress = baseAddress;
        _directory = directory;
    }

    public Uri BaseAddress { get; }

    public static string RepoRoot
    {
        get
        {
            var dir = new DirectoryInfo(AppContext.BaseDirectory);
            while (dir is not null && !File.Exists(Path.Combine(dir.FullName, "SensorPipeline.slnx")))
            {
                dir = dir.Parent;
            }

            return dir?.FullName ?? throw new InvalidOperationException("repository root not found");
        }
    }

    public static async Task<DevHostRunner> StartAsync(string durability)
    {
        var here = new DirectoryInfo(AppContext.BaseDirectory.TrimEnd(Path.DirectorySeparatorChar));
        var dll = Path.Combine(here.Parent!.Parent!.FullName, "SensorPipeline.DevHost", here.Name, "SensorPipeline.DevHost.dll");
        var directory = Path.Combine(Path.GetTempPath(), "sp-eh-bench-" + Guid.NewGuid().ToString("N")[..8]);
        Directory.CreateDirectory(Path.Combine(directory, "app"));
        var start = new ProcessStartInfo("dotnet") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (var arg in new[] { dll, "--app-root", Path.Combine(directory, "app"), "--data", Path.Combine(directory, "data"), "--port", "0",
                     "--hubs", Path.Combine(RepoRoot, "eventhubs.emulator.json"), "--set", "EventHubs:Durability=" + durability })
        {
            start.ArgumentList.Add(arg);
        }

        var process = Process.Start(start)!;
        process.ErrorDataReceived += (_, e) => { };
        process.BeginErrorReadLine();
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(60));
        while (await process.StandardOutput.ReadLineAsync(timeout.Token) is { } line)
        {
            if (line.StartsWith("devhost listening on ", StringComparison.Ordinal))
            {
                // Keep draining stdout so the child never blocks on a full pipe.
                _ = process.StandardOutput.BaseStream.CopyToAsync(Stream.Null, CancellationToken.None);
                return new DevHostRunner(process, new Uri(line["devhost listening on ".Length..]), directory);
            }
        }

        throw new InvalidOperationException("devhost exited before listening");
    }

    public async ValueTask DisposeAsync()
    {
        _process.Kill(entireProcessTree: true);
        await _process.WaitForExitAsync();
        _process.Dispose();
        Directory.Delete(_directory, recursive: true);
    }
}
