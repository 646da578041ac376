using System.Net.Http.Json;
using System.Text.Json;
using SensorPipeline.Core.Telemetry;

namespace SensorPipeline.Functions.Tests;

/// <summary>
/// The handler reporting metrics with the real Application Insights SDK to devhost's ingestion endpoint (flushed every
/// second), writing through <see cref="FaultProxy"/> to a stand-in of its own. A process: its request cap is Kestrel's
/// (<see cref="RequestRefusalTests"/>), and its metrics are the only ones its process exports.
/// </summary>
public sealed class MetricsFixture() : SingleHandlerFixture("metrics", inProcess: false)
{
    private FaultProxy? _proxy;
    private DevHostProcess? _devHost;
    private TempDirectory? _devHostFiles;

    internal FaultProxy Proxy => _proxy ?? throw new InvalidOperationException("not started");

    internal DevHostProcess DevHost => _devHost ?? throw new InvalidOperationException("not started");

    internal override async Task ConfigureAsync(CosmosEmulatorProcess standIn, Dictionary<string, string?> settings)
    {
        _proxy = await FaultProxy.StartAsync(standIn.Endpoint);
        _devHostFiles = new TempDirectory("metrics-devhost");

        // No host.json in the app root: devhost serves the emulator and the telemetry ingestion only.
        _devHost = await DevHostProcess.StartAsync(new DevHostStart
        {
            AppRoot = _devHostFiles.Path,
            DataDirectory = Path.Combine(_devHostFiles.Path, "data"),
            HubsFile = Path.Combine(RepoLayout.Current.Root, "eventhubs.emulator.json"),
        });
        settings["Cosmos__AccountEndpoint"] = _proxy.Address.AbsoluteUri;
        settings["APPLICATIONINSIGHTS_CONNECTION_STRING"] = $"InstrumentationKey=00000000-0000-0000-0000-000000000001;IngestionEndpoint={_devHost.BaseAddress}";
        settings["Telemetry__MetricFlushInterval"] = "00:00:01";
        ShortRetries(settings, 1, maxDelay: "00:00:00.100");
    }

    public override async Task DisposeAsync()
    {
        if (_proxy is not null)
        {
            await _proxy.DisposeAsync();
            _proxy = null;
        }

        await base.DisposeAsync();
        if (_devHost is not null)
        {
            await _devHost.DisposeAsync();
            _devHost = null;
        }

        _devHostFiles?.Dispose();
    }
}

[CollectionDefinition(Name)]
public sealed class MetricsGroup : ICollectionFixture<MetricsFixture>
{
    public const string Name = "metrics";
}

/// <summary>Per-reading metrics (<c>EndToEndMs</c>, from <c>ReadingWritten</c>) are reported at the batch's commit:
/// an attempt that wrote some readings and then failed reports none, so the host's retry of the batch counts each
/// reading once.</summary>
[Collection(MetricsGroup.Name)]
public sealed class MetricsAtCommitTests(MetricsFixture fixture)
{
    [Fact]
    public async Task WeatherProcessor_AttemptFailsAfterSomeWritesThenRetried_EachReadingCountedOnce()
    {
        var fine = Builders.Device("ws");
        var failing = Builders.Device("flaky");
        var envelope = PipelineDriver.WeatherEnvelope(
            PipelineDriver.Ingestion(Builders.Batch(Builders.Weather(fine, 1), Builders.Weather(fine, 2), Builders.Weather(fine, 3), Builders.Weather(failing, 1))));

        // First attempt: the store answers 503 for one device's documents (past the handler's own retries), after the
        // other device's readings were written.
        using (fixture.Proxy.AnswerWritesContaining(failing, HttpStatusCode.ServiceUnavailable, 0))
        {
            var failed = await PipelineDriver.ProcessAsync(fixture.Handler, "WeatherProcessor", [envelope]);
            Assert.Equal(HttpStatusCode.InternalServerError, failed.Status);
            Assert.NotNull(await fixture.Store.ReadAsync("readings", Builders.ReadingId(fine, 1), fine)); // written before the failure
        }

        // The host retries the batch once the store answers again.
        var retried = await PipelineDriver.ProcessAsync(fixture.Handler, "WeatherProcessor", [envelope], retryCount: 1);
        Assert.Equal(HttpStatusCode.OK, retried.Status);
        Assert.NotNull(await fixture.Store.ReadAsync("readings", Builders.ReadingId(failing, 1), failing));

        // A marker batch of one reading: once its count has arrived, every earlier aggregate has been flushed too.
        var marker = Builders.Device("marker");
        var markerEnvelope = PipelineDriver.WeatherEnvelope(PipelineDriver.Ingestion(Builders.Batch(Builders.Weather(marker, 1))));
        Assert.Equal(HttpStatusCode.OK, (await PipelineDriver.ProcessAsync(fixture.Handler, "WeatherProcessor", [markerEnvelope])).Status);

        var counted = await WaitForEndToEndCountAsync(atLeast: 5);
        Assert.Equal(5, counted); // 4 readings of the retried batch + the marker; the failed attempt's writes count nothing
    }

    private async Task<long> WaitForEndToEndCountAsync(long atLeast)
    {
        using var http = new HttpClient { BaseAddress = fixture.DevHost.BaseAddress, Timeout = TimeSpan.FromSeconds(30) };
        return await Eventually.ValueAsync(
            async () =>
            {
                var body = await http.GetFromJsonAsync<JsonElement>("telemetry/metrics?name=" + MetricNames.EndToEndMs);
                return body.GetProperty("points").EnumerateArray()
                    .Where(p => p.GetProperty("dimensions").TryGetProperty(MetricNames.Dimensions.Function, out var f) && f.GetString() == "WeatherProcessor")
                    .Sum(p => p.GetProperty("count").GetInt64());
            },
            count => count >= atLeast, $"EndToEndMs to count {atLeast} readings", TimeSpan.FromSeconds(60), TimeSpan.FromMilliseconds(200),
            () => "--- handler ---\n" + fixture.Handler.Output);
    }
}
