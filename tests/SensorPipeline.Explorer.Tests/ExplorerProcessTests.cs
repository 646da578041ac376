using System.Net;
using System.Net.Http.Json;
using System.Text;
using System.Text.Json;
using SensorPipeline.Core.Readings;
using SensorPipeline.Devices;

namespace SensorPipeline.Explorer.Tests;

/// <summary>The explorer on the real devhost program (a process on a free loopback port): a cross-origin POST to an
/// action is refused and appends nothing; the page's own POST with its token sends a sample of the simulated devices,
/// and a peek decodes what was sent; with no Cosmos DB account, every route that reads one answers 503.</summary>
public sealed class ExplorerProcessTests : IAsyncLifetime
{
    private readonly HttpClient _http = new() { Timeout = TimeSpan.FromSeconds(30) };
    private HubsOnlyDevHost? _devHost;

    private Uri At(string path) => new(_devHost!.BaseAddress, path);

    public async Task InitializeAsync() => _devHost = await HubsOnlyDevHost.StartAsync("ingestion", partitions: 2, consumerGroup: "splitter");

    private async Task<string> TokenAsync() =>
        (await _http.GetFromJsonAsync<JsonElement>(At("explorer/api/session"))).GetProperty("token").GetString()!;

    private async Task<HttpResponseMessage> SendAsync(string? origin, string? token, int sample = 3) =>
        await PostAsync($"explorer/api/hubs/ingestion/send?partition=1&sample={sample}", origin, token);

    private async Task<HttpResponseMessage> PostAsync(string path, string? origin, string? token, string? json = null)
    {
        using var request = new HttpRequestMessage(HttpMethod.Post, At(path));
        if (json is not null)
        {
            request.Content = new StringContent(json, Encoding.UTF8, "application/json");
        }

        if (origin is not null)
        {
            request.Headers.Add("Origin", origin);
        }

        if (token is not null)
        {
            request.Headers.Add(ExplorerSession.TokenHeader, token);
        }

        return await _http.SendAsync(request);
    }

    [Fact]
    public async Task Send_CrossOriginPost_RefusedAndNothingAppended()
    {
        var token = await TokenAsync();

        using var crossSite = await SendAsync("https://attacker.example", token);
        using var formPost = await SendAsync("https://attacker.example", null);
        using var otherLocalSite = await SendAsync("http://127.0.0.1:1", token);
        var hubs = await _http.GetFromJsonAsync<JsonElement>(At("explorer/api/hubs"));

        Assert.Equal(HttpStatusCode.Forbidden, crossSite.StatusCode);
        Assert.Equal(HttpStatusCode.Forbidden, formPost.StatusCode);
        Assert.Equal(HttpStatusCode.Forbidden, otherLocalSite.StatusCode);
        Assert.All(hubs.GetProperty("hubs")[0].GetProperty("partitions").EnumerateArray(), p => Assert.Equal(-1, p.GetProperty("lastEnqueuedSequenceNumber").GetInt64()));
    }

    [Fact]
    public async Task Send_OwnPageWithToken_SimulatedDevicesOfEveryKindPeekedBackDecoded()
    {
        var token = await TokenAsync();
        var kinds = SensorKindCatalog.Default.All;
        var sample = kinds.Count + 1;
        using var sent = await SendAsync(_devHost!.BaseAddress.GetLeftPart(UriPartial.Authority), token, sample);
        Assert.Equal(HttpStatusCode.OK, sent.StatusCode);
        var sequence = (await sent.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("sequenceNumber").GetInt64();

        var peek = await _http.GetFromJsonAsync<JsonElement>(At($"explorer/api/hubs/ingestion/partitions/1/events?from={sequence}&count=5"));

        var e = Assert.Single(peek.GetProperty("events").EnumerateArray());
        Assert.Equal("end", peek.GetProperty("stoppedBy").GetString());
        Assert.Equal("explorer", e.GetProperty("properties").GetProperty("sentBy").GetString());
        Assert.Equal("ReadingBatch", e.GetProperty("body").GetProperty("format").GetString());
        var readings = e.GetProperty("body").GetProperty("readings").EnumerateArray().ToList();
        // The fleet's devices in its order (the kinds take turns), each decoded with its kind's measurements.
        Assert.Equal(Enumerable.Range(0, sample).Select(i => DeviceFleet.DeviceId(ExplorerSample.DevicePrefix, kinds[i % kinds.Count].Name, i / kinds.Count)),
            readings.Select(r => r.GetProperty("deviceId").GetString()));
        Assert.All(kinds, kind => Assert.Contains(readings, r => r.TryGetProperty(kind.Name, out var measurements) && measurements.EnumerateObject().Any()));
        Assert.All(readings, r => Assert.Equal(1UL, r.GetProperty("sequence").GetUInt64()));
    }

    [Fact]
    public async Task Send_SampleBelowOneReadingPerKind_BadRequestAndNothingAppended()
    {
        var token = await TokenAsync();

        using var sent = await SendAsync(_devHost!.BaseAddress.GetLeftPart(UriPartial.Authority), token, sample: 1);
        var session = await _http.GetFromJsonAsync<JsonElement>(At("explorer/api/session"));
        var hubs = await _http.GetFromJsonAsync<JsonElement>(At("explorer/api/hubs"));

        Assert.Equal(HttpStatusCode.BadRequest, sent.StatusCode);
        Assert.Contains($"from {ExplorerSample.MinReadings} (one reading per sensor kind)", await sent.Content.ReadAsStringAsync(), StringComparison.Ordinal);
        Assert.Equal(ExplorerSample.MinReadings, session.GetProperty("sample").GetProperty("minReadings").GetInt32());
        Assert.Equal(ExplorerSample.MaxReadings, session.GetProperty("sample").GetProperty("maxReadings").GetInt32());
        Assert.All(hubs.GetProperty("hubs")[0].GetProperty("partitions").EnumerateArray(), p => Assert.Equal(-1, p.GetProperty("lastEnqueuedSequenceNumber").GetInt64()));
    }

    [Fact]
    public async Task CosmosRoutes_NoAccountSet_ServiceUnavailableNamingTheSettingAfterTheCrossSiteGuard()
    {
        string[] reads = ["cosmos/containers", "cosmos/containers/readings/query?sql=SELECT%20*%20FROM%20c", "cosmos/containers/readings/items/x",
            "devices", "devices/dev-weather-0001", "deadletters"];
        var token = await TokenAsync();
        const string Redrive = """{"ids": ["x"], "dryRun": true}""";

        var answers = new List<(string Route, HttpStatusCode Status, string Body)>();
        foreach (var read in reads)
        {
            using var response = await _http.GetAsync(At("explorer/api/" + read));
            answers.Add((read, response.StatusCode, await response.Content.ReadAsStringAsync()));
        }

        using var crossSite = await PostAsync("explorer/api/deadletters/redrive", "https://attacker.example", token, Redrive);
        using var own = await PostAsync("explorer/api/deadletters/redrive", _devHost!.BaseAddress.GetLeftPart(UriPartial.Authority), token, Redrive);
        answers.Add(("deadletters/redrive", own.StatusCode, await own.Content.ReadAsStringAsync()));

        Assert.Equal(HttpStatusCode.Forbidden, crossSite.StatusCode);
        Assert.All(answers, a =>
        {
            Assert.True(a.Status == HttpStatusCode.ServiceUnavailable, $"{a.Route}: {a.Status} {a.Body}");
            Assert.Contains("Cosmos__AccountEndpoint", a.Body, StringComparison.Ordinal);
        });
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
