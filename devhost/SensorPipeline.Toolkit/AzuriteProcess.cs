using System.Globalization;
using System.Text.RegularExpressions;

namespace SensorPipeline.Toolkit;

/// <summary>
/// Azurite's Blob service (Microsoft's Storage emulator, npm <c>azurite</c> pinned in the root package.json, which
/// <c>./pipeline</c> installs with <c>npm ci</c>) as its own process on a loopback port, keeping its data in
/// <see cref="DataDirectoryProcess.DataDirectory"/>: a restart on the same directory finds every blob. The Functions host's
/// <c>AzureWebJobsStorage</c>, where its processors keep ownership and checkpoints.
/// </summary>
public sealed partial class AzuriteProcess : DataDirectoryProcess
{
    /// <summary>Azurite's development account, served when it is started with no accounts of its own.</summary>
    public const string DevelopmentAccount = "devstoreaccount1";

    /// <summary>Azurite's fixed development account key, which it documents and always accepts.</summary>
    public const string AccountKey = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

    private AzuriteProcess(ChildProcess process, Uri blobs, string dataDirectory, bool temporary)
        : base(process, dataDirectory, temporary) => BlobEndpoint = blobs;

    /// <summary>The Blob service, <c>http://127.0.0.1:PORT/</c>.</summary>
    public Uri BlobEndpoint { get; }

    /// <summary>A Storage connection string for the Blob service of azurite's development account (devstoreaccount1),
    /// as the Functions host's <c>AzureWebJobsStorage</c>.</summary>
    public string ConnectionString => ConnectionStringFor(DevelopmentAccount);

    /// <summary>A Storage connection string for the Blob service of <paramref name="account"/>: one of the accounts
    /// the process was started with, or devstoreaccount1 when it was started with none.</summary>
    public string ConnectionStringFor(string account) => string.Create(CultureInfo.InvariantCulture,
        $"DefaultEndpointsProtocol=http;AccountName={account};AccountKey={AccountKey};BlobEndpoint={BlobEndpoint}{account};");

    /// <summary>Starts azurite over a fresh temporary folder, deleted on dispose (a test fixture).</summary>
    public static Task<AzuriteProcess> StartAsync(CancellationToken cancellationToken = default) =>
        StartAsync(TemporaryDirectory("azurite"), temporary: true, cancellationToken: cancellationToken);

    /// <summary>Starts azurite over a fresh temporary folder, deleted on dispose, serving the storage accounts
    /// <paramref name="accounts"/> (each with <see cref="AccountKey"/>) instead of devstoreaccount1: one process
    /// whose accounts keep apart what would otherwise take an azurite each (a test assembly's function apps, whose
    /// Functions hosts all use the same blob container).</summary>
    public static Task<AzuriteProcess> StartAsync(IReadOnlyCollection<string> accounts, CancellationToken cancellationToken = default) =>
        StartAsync(TemporaryDirectory("azurite"), temporary: true, accounts: accounts,
            cancellationToken: cancellationToken);

    /// <summary>Starts azurite over <paramref name="dataDirectory"/> on <paramref name="port"/> (0: a free one) and
    /// waits until it listens. <paramref name="debugLog"/>: azurite's request log (one entry per Storage request).
    /// <paramref name="accounts"/>: the storage accounts it serves (azurite's <c>AZURITE_ACCOUNTS</c>), none for its
    /// development account alone.</summary>
    public static async Task<AzuriteProcess> StartAsync(string dataDirectory, RepoLayout? layout = null, int port = 0, string? logPath = null,
        string? debugLog = null, bool temporary = false, IReadOnlyCollection<string>? accounts = null, CancellationToken cancellationToken = default)
    {
        layout ??= RepoLayout.Current;
        var main = layout.File("node_modules", "azurite", "dist", "src", "blob", "main.js");
        if (!File.Exists(main))
        {
            throw new FileNotFoundException($"{main} is missing: run `npm ci` in the repository root (./pipeline does)", main);
        }

        Directory.CreateDirectory(dataDirectory);
        var process = ChildProcess.Start(new ChildProcessOptions
        {
            Name = "azurite",
            FileName = "node",
            Arguments = [main, "--blobHost", "127.0.0.1", "--blobPort", port.ToString(CultureInfo.InvariantCulture), "--location", dataDirectory,
                "--disableTelemetry", "--skipApiVersionCheck", .. LogArguments(debugLog)],
            WorkingDirectory = layout.Root,
            LogPath = logPath,
            Environment = AccountsEnvironment(accounts),
        });
        var blobs = await WaitUntilListeningAsync(process, Listening(), TimeSpan.FromSeconds(60), cancellationToken);
        return new AzuriteProcess(process, blobs, dataDirectory, temporary);
    }

    private static Dictionary<string, string?> AccountsEnvironment(IReadOnlyCollection<string>? accounts) =>
        accounts is null or { Count: 0 } ? [] : new() { ["AZURITE_ACCOUNTS"] = string.Join(';', accounts.Select(a => $"{a}:{AccountKey}")) };

    private static string[] LogArguments(string? debugLog) => debugLog is null ? ["--silent"] : ["--debug", debugLog];

    [GeneratedRegex(@"Blob service successfully listens on (?<url>http://127\.0\.0\.1:\d+/?)")]
    private static partial Regex Listening();
}
