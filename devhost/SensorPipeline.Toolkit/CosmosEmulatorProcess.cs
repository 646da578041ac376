using System.Text.RegularExpressions;

namespace SensorPipeline.Toolkit;

/// <summary>
/// The local Cosmos DB emulator (devhost/SensorPipeline.CosmosEmulator) as its own process on a free loopback port,
/// keeping its data in <see cref="DataDirectory"/>: a restart on the same directory finds every acknowledged write.
/// It is a separate process so it can be killed or frozen apart from the rest of the stack.
/// </summary>
public sealed partial class CosmosEmulatorProcess : IAsyncDisposable
{
    private CosmosEmulatorProcess(ChildProcess process, Uri endpoint, string dataDirectory)
    {
        Process = process;
        Endpoint = endpoint;
        DataDirectory = dataDirectory;
    }

    public ChildProcess Process { get; }

    /// <summary>The account endpoint, <c>https://127.0.0.1:PORT/</c>.</summary>
    public Uri Endpoint { get; }

    /// <summary>Where the emulator keeps its durable log.</summary>
    public string DataDirectory { get; }

    /// <summary>Starts the emulator over <paramref name="dataDirectory"/> and waits until it listens.</summary>
    public static async Task<CosmosEmulatorProcess> StartAsync(string dataDirectory, RepoLayout? layout = null, string? logPath = null,
        bool echo = false, int port = 0, CancellationToken cancellationToken = default)
    {
        layout ??= RepoLayout.Current;
        var process = ChildProcess.Start(new ChildProcessOptions
        {
            Name = "cosmos",
            FileName = "dotnet",
            Arguments = [layout.CosmosEmulatorDll, "--data", dataDirectory, "--port", port.ToString(System.Globalization.CultureInfo.InvariantCulture)],
            WorkingDirectory = layout.Root,
            LogPath = logPath,
            Echo = echo,
            MaxCapturedLines = 1000,
        });
        try
        {
            return new CosmosEmulatorProcess(process, await process.WaitForUrlAsync(Announce(), TimeSpan.FromSeconds(90), cancellationToken), dataDirectory);
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

    [GeneratedRegex(@"listening on (?<url>https://127\.0\.0\.1:\d+/)")]
    private static partial Regex Announce();
}
