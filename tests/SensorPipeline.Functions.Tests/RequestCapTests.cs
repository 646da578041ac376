using System.Net.Http.Json;
using System.Security.Cryptography;
using System.Text.Json;
using SensorPipeline.Core.Telemetry;
using SensorPipeline.Protos;

namespace SensorPipeline.Functions.Tests;

/// <summary>
/// The request body cap on real Kestrel (the handler process; an in-process test server applies no Kestrel limit):
/// it follows the batch size the Functions host really uses, host.json's or the app setting that overrides it.
/// </summary>
public sealed class BatchSizeOverrideTests : IAsyncLifetime
{
    private readonly string _appRoot = Directory.CreateTempSubdirectory("sensorpipeline-override-").FullName;
    private CosmosEmulatorProcess? _standIn;
    private HubsEmulator? _hubs;
    private CustomHandlerProcess? _handler;

    public async Task InitializeAsync()
    {
        // host.json as shipped (2); the app setting the host honours over it raises the batch to 16.
        File.WriteAllText(Path.Combine(_appRoot, "host.json"), """{"version":"2.0","extensions":{"eventHubs":{"maxEventBatchSize":2}}}""");
        _standIn = await CosmosEmulatorProcess.StartAsync();
        _hubs = await HubsEmulator.StartAsync();
        var settings = CustomHandlerProcess.Settings(_standIn, "override-" + Guid.NewGuid().ToString("N")[..8]);
        settings["EventHubConnection"] = _hubs.ConnectionString;
        settings["FUNCTIONS_APP_ROOT_PATH"] = _appRoot;
        settings["AzureFunctionsJobHost__extensions__eventHubs__maxEventBatchSize"] = "16";
        _handler = await CustomHandlerProcess.StartAsync(settings);
    }

    [Fact]
    public async Task Splitter_SixteenEventsOfOneMegabyteUnderTheOverride_Accepted()
    {
        // 16 ingestion events of ~1 MB (~10,000 readings each): a ~21 MB request, over host.json's cap of 17 MB.
        var batch = new ReadingBatch();
        while (batch.CalculateSize() < 1_000_000 - 200)
        {
            batch.Readings.Add(Builders.Weather("big", (ulong)batch.Readings.Count + 1));
        }

        var body = Google.Protobuf.MessageExtensions.ToByteArray(batch);
        var events = Enumerable.Range(0, 16).Select(_ => PipelineDriver.Ingestion(body)).ToArray();
        var request = HostRequest.Build("Splitter", "ingestion", "splitter", "0", events);
        Assert.True(request.Length > 17 * 1024 * 1024, $"the request is {request.Length} bytes");

        var answer = await SendAsync(_handler!, "Splitter", request);

        Assert.Equal(HttpStatusCode.OK, answer);
    }

    public async Task DisposeAsync()
    {
        _handler?.Dispose();
        _standIn?.Dispose();
        if (_hubs is not null)
        {
            await _hubs.DisposeAsync();
        }

        Directory.Delete(_appRoot, recursive: true);
    }

    /// <summary>The answer's status, or null when the handler cut the request off before answering.</summary>
    internal static async Task<HttpStatusCode?> SendAsync(IHandlerUnderTest handler, string function, byte[] request)
    {
        try
        {
            using var response = await handler.Http.PostAsync(new Uri("/" + function, UriKind.Relative), HostRequest.Content(request));
            return response.StatusCode;
        }
        catch (HttpRequestException)
        {
            return null;
        }
    }
}

/// <summary>A request the handler refuses still reports its batch's age, so the stall alarm sees the partition stop.</summary>
[Collection(MetricsGroup.Name)]
public sealed class RequestRefusalTests(MetricsFixture fixture)
{
    [Fact]
    public async Task WeatherProcessor_BodyOverTheCap_Answers413AndItsPartitionsFreshnessIsRecorded()
    {
        // host.json allows 2 events (a 17 MB cap); three 6 MB events are 24 MB of base64, from events enqueued 2 hours ago.
        var enqueued = DateTimeOffset.UtcNow - TimeSpan.FromHours(2);
        var events = Enumerable.Range(0, 3).Select(_ => new HubEvent(RandomNumberGenerator.GetBytes(6 * 1024 * 1024), PipelineDriver.NextSequence(), enqueued)).ToArray();
        var request = HostRequest.Build("WeatherProcessor", "weather", "weather-processor", "41", events);

        var answer = await BatchSizeOverrideTests.SendAsync(fixture.Handler, "WeatherProcessor", request);

        Assert.Equal(HttpStatusCode.RequestEntityTooLarge, answer);
        using var http = new HttpClient { BaseAddress = fixture.DevHost.BaseAddress, Timeout = TimeSpan.FromSeconds(30) };
        var age = await Eventually.ValueAsync(
            async () =>
            {
                var body = await http.GetFromJsonAsync<JsonElement>("telemetry/metrics?name=" + MetricNames.FreshnessMs);
                return body.GetProperty("points").EnumerateArray()
                    .Where(p => p.GetProperty("dimensions").TryGetProperty(MetricNames.Dimensions.Partition, out var partition) && partition.GetString() == "41")
                    .Select(p => p.GetProperty("max").GetDouble())
                    .DefaultIfEmpty(0)
                    .Max();
            },
            age => age >= TimeSpan.FromHours(2).TotalMilliseconds - 60_000, "partition 41's freshness of about 2 hours",
            TimeSpan.FromSeconds(30), TimeSpan.FromMilliseconds(200), () => "--- handler ---\n" + fixture.Handler.Output);

        Assert.True(age >= TimeSpan.FromHours(2).TotalMilliseconds - 60_000, $"partition 41's freshness: {age} ms\n--- handler ---\n{fixture.Handler.Output}");
    }
}
