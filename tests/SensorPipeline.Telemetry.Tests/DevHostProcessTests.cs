using System.Net;

namespace SensorPipeline.Telemetry.Tests;

/// <summary>
/// The real devhost program (its built dll, started as a process on a free loopback port) serves the telemetry
/// endpoints: the real SDK posts to it, the summary and the dashboard come back from it.
/// </summary>
public sealed class DevHostProcessTests : IAsyncLifetime
{
    private readonly HttpClient _http = new() { Timeout = TimeSpan.FromSeconds(30) };
    private HubsOnlyDevHost? _devHost;
    private Uri _url = null!;

    public async Task InitializeAsync()
    {
        // The pipeline's ingestion hub and no functions: the emulator and the telemetry endpoints, nothing to invoke.
        _devHost = await HubsOnlyDevHost.StartAsync("ingestion", partitions: 1, consumerGroup: "splitter");
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
    }
}
