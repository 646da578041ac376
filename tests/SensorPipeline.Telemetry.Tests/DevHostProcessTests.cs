using System.Net;

namespace SensorPipeline.Telemetry.Tests;

/// <summary>
/// The real devhost program (its built dll, started as a process on a free loopback port) serves the telemetry
/// endpoints: the real SDK posts to it, the summary and the dashboard come back from it.
/// </summary>
public sealed class DevHostProcessTests : IAsyncLifetime
{
    private readonly TempDirectory _root = new("telemetry-devhost-");
    private readonly HttpClient _http = new() { Timeout = TimeSpan.FromSeconds(30) };
    private DevHostProcess? _devHost;
    private AzuriteProcess? _azurite;
    private Uri _url = null!;

    public async Task InitializeAsync()
    {
        // An app with the pipeline's hubs and no functions: the emulator and the telemetry endpoints, nothing to invoke.
        File.WriteAllText(Path.Combine(_root.Path, "host.json"), """{"version": "2.0", "customHandler": {"description": {"defaultExecutablePath": "node"}}}""");
        File.WriteAllText(Path.Combine(_root.Path, "eventhubs.emulator.json"), """
            {"UserConfig": {"NamespaceConfig": [{"Type": "EventHub", "Name": "ns", "Entities": [
              {"Name": "ingestion", "PartitionCount": "1", "ConsumerGroups": [{"Name": "splitter"}]}]}], "LoggingConfig": {"Type": "File"}}}
            """);
        // The Functions host in devhost keeps checkpoints and ownership in AzureWebJobsStorage: azurite, as the stack runs it.
        _azurite = await AzuriteProcess.StartAsync();
        _devHost = await DevHostProcess.StartAsync(new DevHostStart
        {
            AppRoot = _root.Path, DataDirectory = Path.Combine(_root.Path, ".data"),
            Environment = new Dictionary<string, string?> { ["AzureWebJobsStorage"] = _azurite.ConnectionString },
        });
        _url = _devHost.BaseAddress;
    }

    [Fact]
    public async Task RealDevHost_RealSdk_SummaryAndDashboardServed()
    {
        using var known = new KnownTelemetry($"InstrumentationKey=00000000-0000-0000-0000-000000000001;IngestionEndpoint={_url}");

        known.FeedAndFlush();
        var summary = await Eventually.ValueAsync(
            () => _http.GetFromJsonAsync<TelemetrySummary>(new Uri(_url, "telemetry/summary?window=3600")),
            summary => summary?.Functions.Count == 2, "both functions in the summary", TimeSpan.FromSeconds(60), TimeSpan.FromMilliseconds(100));

        using var dashboard = await _http.GetAsync(new Uri(_url, "dashboard"));

        Assert.Equal(KnownTelemetry.SplitterEvents, Assert.Single(summary!.Functions, f => f.Function == "Splitter").EventsReceived);
        Assert.Equal(KnownTelemetry.ExpectedWeatherPercentile(0.99), Assert.Single(summary.Functions, f => f.Function == "WeatherProcessor").EndToEnd!.P99);
        Assert.Equal(HttpStatusCode.OK, dashboard.StatusCode);
        Assert.Equal("text/html", dashboard.Content.Headers.ContentType!.MediaType);
        Assert.Contains("/telemetry/summary", await dashboard.Content.ReadAsStringAsync(), StringComparison.Ordinal);
    }

    public async Task DisposeAsync()
    {
        _http.Dispose();
        if (_devHost is not null)
        {
            await _devHost.DisposeAsync();
        }

        if (_azurite is not null)
        {
            await _azurite.DisposeAsync();
        }

        _root.Dispose();
    }
}
