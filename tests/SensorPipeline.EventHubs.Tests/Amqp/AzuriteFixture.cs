using System.Globalization;
using System.Text.RegularExpressions;

namespace SensorPipeline.EventHubs.Tests.Amqp;

/// <summary>
/// Azurite's Blob service (Microsoft's Storage emulator, npm <c>azurite</c> pinned in the root package.json, which
/// <c>./pipeline</c> installs with <c>npm ci</c>) on a free loopback port the process picks itself, its data in a
/// temporary directory; killed and removed on dispose. The checkpoint store of the processors under test.
/// </summary>
public sealed partial class AzuriteFixture : IAsyncLifetime, IDisposable
{
    /// <summary>Azurite's fixed development account and key, which it documents and always accepts.</summary>
    private const string AccountKey = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

    private readonly TempDirectory _data = new("sensorpipeline-azurite-");
    private ChildProcess? _azurite;
    private Uri? _blobs;

    /// <summary>A Storage connection string for the Blob service, as the Functions host's <c>AzureWebJobsStorage</c>.</summary>
    public string ConnectionString => string.Create(CultureInfo.InvariantCulture,
        $"DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey={AccountKey};BlobEndpoint={_blobs ?? throw new InvalidOperationException("not started")}devstoreaccount1;");

    public async Task InitializeAsync()
    {
        var main = RepoLayout.Current.File("node_modules", "azurite", "dist", "src", "blob", "main.js");
        if (!File.Exists(main))
        {
            throw new FileNotFoundException($"{main} is missing: run `npm ci` in the repository root (./pipeline does)", main);
        }

        _azurite = ChildProcess.Start(new ChildProcessOptions
        {
            FileName = "node",
            Arguments = [main, "--blobHost", "127.0.0.1", "--blobPort", "0", "--location", _data.Path, "--silent", "--disableTelemetry"],
            Name = "azurite",
        });
        _blobs = await _azurite.WaitForUrlAsync(Listening(), TimeSpan.FromSeconds(60));
    }

    public async Task DisposeAsync()
    {
        if (_azurite is not null)
        {
            await _azurite.DisposeAsync();
        }

        _data.Dispose();
    }

    public void Dispose() => _data.Dispose();

    [GeneratedRegex(@"Blob service successfully listens on (?<url>http://127\.0\.0\.1:\d+/?)")]
    private static partial Regex Listening();
}
