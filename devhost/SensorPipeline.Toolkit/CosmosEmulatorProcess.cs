using System.Text.RegularExpressions;

namespace SensorPipeline.Toolkit;

/// <summary>
/// The local Cosmos DB emulator (emulators/SensorPipeline.CosmosEmulator) as its own process on a free loopback port,
/// keeping its data in <see cref="DataDirectoryProcess.DataDirectory"/>: a restart on the same directory finds every acknowledged write.
/// It is a separate process so it can be killed or frozen apart from the rest of the stack.
/// </summary>
public sealed partial class CosmosEmulatorProcess : DataDirectoryProcess
{
    private CosmosEmulatorProcess(ChildProcess process, Uri endpoint, string dataDirectory, bool temporary)
        : base(process, dataDirectory, temporary) => Endpoint = endpoint;

    /// <summary>The account endpoint, <c>https://127.0.0.1:PORT/</c>.</summary>
    public Uri Endpoint { get; }

    /// <summary>The folder holding only the emulator's certificate as PEM (the emulator's
    /// <c>CosmosEmulatorAccount.TrustDirectoryName</c>).</summary>
    public string TrustDirectory => Path.Combine(DataDirectory, "trust");

    /// <summary>The <c>SSL_CERT_DIR</c> value that makes a .NET process on Linux trust the emulator with no code of its
    /// own: the trust folder, then any folders the environment already names. The system's roots still come from the
    /// default bundle file, which this does not replace.</summary>
    public string SslCertDir => System.Environment.GetEnvironmentVariable("SSL_CERT_DIR") is { Length: > 0 } existing
        ? TrustDirectory + Path.PathSeparator + existing
        : TrustDirectory;

    /// <summary>Starts the emulator over a fresh temporary data directory, deleted again on dispose (a test fixture).</summary>
    public static Task<CosmosEmulatorProcess> StartAsync(CancellationToken cancellationToken = default) =>
        StartAsync(TemporaryDirectory("cosmos"), temporary: true, cancellationToken: cancellationToken);

    /// <summary>Starts the emulator over <paramref name="dataDirectory"/> and waits until it listens; each of
    /// <paramref name="settings"/> (<c>Section:Key=Value</c>) is passed as <c>--set</c>.</summary>
    public static async Task<CosmosEmulatorProcess> StartAsync(string dataDirectory, RepoLayout? layout = null, string? logPath = null,
        bool echo = false, int port = 0, bool temporary = false, IReadOnlyList<string>? settings = null, CancellationToken cancellationToken = default)
    {
        layout ??= RepoLayout.Current;
        var process = ChildProcess.Start(new ChildProcessOptions
        {
            Name = "cosmos",
            FileName = "dotnet",
            Arguments = [layout.CosmosEmulatorDll, "--data", dataDirectory, "--port", port.ToString(System.Globalization.CultureInfo.InvariantCulture),
                .. (settings ?? []).SelectMany(setting => new[] { "--set", setting })],
            WorkingDirectory = layout.Root,
            LogPath = logPath,
            Echo = echo,
            MaxCapturedLines = 1000,
        });
        var endpoint = await WaitUntilListeningAsync(process, Announce(), TimeSpan.FromSeconds(90), cancellationToken);
        return new CosmosEmulatorProcess(process, endpoint, dataDirectory, temporary);
    }

    /// <summary>SIGSTOP: the store keeps its data and connections but answers nothing (an outage without data loss).</summary>
    public void Freeze() => Process.Freeze();

    /// <summary>SIGCONT: it answers again.</summary>
    public void Thaw() => Process.Thaw();

    [GeneratedRegex(@"listening on (?<url>https://127\.0\.0\.1:\d+/)")]
    private static partial Regex Announce();
}
