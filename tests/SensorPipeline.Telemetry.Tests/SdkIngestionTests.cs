namespace SensorPipeline.Telemetry.Tests;

/// <summary>
/// The local endpoint after the real SDK posted the known run to it, once its summary holds all of it (both functions,
/// the container, both dead-letter reasons). The tests of <see cref="SdkIngestionTests"/> only read it.
/// </summary>
public sealed class KnownRunFixture : IAsyncLifetime
{
    private TelemetryServer? _server;

    internal TelemetryServer Server => _server ?? throw new InvalidOperationException("not started");

    internal TelemetrySummary Summary { get; private set; } = null!;

    public async Task InitializeAsync()
    {
        _server = await TelemetryServer.StartAsync();
        using var known = new KnownTelemetry(_server.ConnectionString);
        known.FeedAndFlush();
        Summary = await _server.WaitForAsync(s => s.Functions.Count == 2 && s.Cosmos.Count == 1 && s.DeadLetters.Count == 2);
    }

    public async Task DisposeAsync()
    {
        if (_server is not null)
        {
            await _server.DisposeAsync();
        }
    }
}

/// <summary>The handler's PipelineMetrics on the real Microsoft.ApplicationInsights 2.23 SDK, posting to the local endpoint.</summary>
public sealed class SdkIngestionTests(KnownRunFixture run) : IClassFixture<KnownRunFixture>
{
    [Fact]
    public void RealSdk_KnownRun_SummaryMatchesWhatWasTracked()
    {
        var summary = run.Summary;
        var splitter = Function(summary, "Splitter");
        Assert.Equal(KnownTelemetry.SplitterEvents, splitter.EventsReceived);
        Assert.Equal(KnownTelemetry.SplitterReadings, splitter.ReadingsReceived);
        Assert.Equal(KnownTelemetry.SplitterFreshnessMaxMs, splitter.FreshnessMsMax);
        Assert.Equal(2, splitter.Batches);
        Assert.Equal(7.5, splitter.BatchSizeAvg);
        Assert.Equal(2, splitter.Invocations);
        Assert.Null(splitter.EndToEnd);

        var weather = Function(summary, "WeatherProcessor");
        Assert.Equal(KnownTelemetry.WeatherReadings, weather.ReadingsReceived);
        Assert.Equal(KnownTelemetry.WeatherLatencies.Count, weather.DocumentsWritten);
        Assert.Equal(KnownTelemetry.WeatherStale, weather.StaleReadings);
        Assert.Equal(KnownTelemetry.WeatherDeadLetters, weather.DeadLetters);
        Assert.Equal(1, weather.InvocationFailures);
        var e2e = weather.EndToEnd!;
        Assert.Equal(KnownTelemetry.WeatherLatencies.Count, e2e.Count);
        Assert.Equal(KnownTelemetry.ExpectedWeatherPercentile(0.5), e2e.P50);
        Assert.Equal(KnownTelemetry.ExpectedWeatherPercentile(0.9), e2e.P90);
        Assert.Equal(KnownTelemetry.ExpectedWeatherPercentile(0.99), e2e.P99);
        Assert.Equal(KnownTelemetry.ExpectedWeatherPercentile(0.999), e2e.P999);
        Assert.Equal(KnownTelemetry.WeatherLatencies.Max(), e2e.Max);
        Assert.Equal(KnownTelemetry.WeatherLatencies.Average(), e2e.Mean!.Value, 6);
        // Observed-at is 250 ms before enqueued for every reading, so device-to-store is e2e shifted by 250 ms.
        Assert.Equal(KnownTelemetry.WeatherLatencies.Max() + 250, weather.DeviceToStore!.Max);

        Assert.Equal([new DeadLetterCount("WeatherProcessor", "invalid-coordinates", 2), new DeadLetterCount("WeatherProcessor", "zero-sequence", 1)], summary.DeadLetters);
        var cosmos = Assert.Single(summary.Cosmos);
        Assert.Equal(("readings", KnownTelemetry.CosmosCalls, KnownTelemetry.CosmosCalls * KnownTelemetry.CosmosRuPerCall, KnownTelemetry.CosmosThrottledRetries, KnownTelemetry.CosmosThrottledRetries),
            (cosmos.Container, cosmos.Calls, cosmos.RequestUnits, cosmos.Throttled, cosmos.Retries));
        Assert.Equal(14.5, cosmos.LatencyMsAvg);
        Assert.Equal(19, cosmos.LatencyMsMax);
    }

    [Fact]
    public void RealSdk_Post_IsGzipAndCounted()
    {
        var ingestion = run.Summary.Ingestion;
        Assert.True(ingestion.Requests >= 1);
        Assert.Equal(ingestion.Items, ingestion.MetricItems);
        // gzip: what arrived is smaller than what it decompressed to (the SDK's envelopes repeat a lot).
        Assert.InRange(ingestion.BytesCompressed, 1, ingestion.BytesUncompressed / 3);
        Assert.Equal(0, ingestion.Evicted);
    }

    [Fact]
    public async Task RealSdk_LatencyItem_CarriesItsHistogramAsLatencyBucketsPairs()
    {
        var server = run.Server;
        using var document = JsonDocument.Parse(await server.Http.GetStringAsync(server.At($"telemetry/metrics?name={MetricNames.EndToEndMs}")));

        // One item for the function's whole period, not one per bucket.
        var point = Assert.Single(document.RootElement.GetProperty("points").EnumerateArray());
        var dimensions = point.GetProperty("dimensions");
        Assert.Equal("WeatherProcessor", dimensions.GetProperty("Function").GetString());
        Assert.Equal(KnownTelemetry.WeatherLatencies.Count, point.GetProperty("count").GetInt64());
        var pairs = dimensions.GetProperty("Buckets").GetString()!.Split(',').Select(p => p.Split(':')).ToList();
        var expected = KnownTelemetry.WeatherLatencies.GroupBy(l => LatencyBuckets.Index(l)).OrderBy(g => g.Key)
            .Select(g => (LatencyBuckets.Label(g.Key), (long)g.Count()));
        Assert.Equal(expected, pairs.Select(p => (p[0], long.Parse(p[1], System.Globalization.CultureInfo.InvariantCulture))));
        Assert.Contains("inf", pairs.Select(p => p[0]));
    }

    [Fact]
    public async Task MetricsEndpoint_SinceAfterTheRun_ReturnsNothing()
    {
        var server = run.Server;

        var later = await server.Http.GetFromJsonAsync<JsonElement>(server.At("telemetry/metrics?since=2999-01-01T00:00:00Z"));
        var bad = await server.Http.GetAsync(server.At("telemetry/metrics?since=yesterday"));

        Assert.Equal(0, later.GetProperty("points").GetArrayLength());
        Assert.Equal(System.Net.HttpStatusCode.BadRequest, bad.StatusCode);
    }

    private static FunctionSummary Function(TelemetrySummary summary, string name) => Assert.Single(summary.Functions, f => f.Function == name);
}
