using System.Net;
using System.Net.Http.Json;
using System.Text.Json;

namespace SensorPipeline.Explorer.Tests;

/// <summary>The explorer on the real devhost program (a process on a free loopback port): a cross-origin POST to an
/// action is refused and appends nothing; the page's own POST with its token sends, and a peek decodes what was sent.</summary>
public sealed class ExplorerProcessTests : IAsyncLifetime
{
    private readonly HttpClient _http = new() { Timeout = TimeSpan.FromSeconds(30) };
    private HubsOnlyDevHost? _devHost;

    private Uri At(string path) => new(_devHost!.BaseAddress, path);

    public async Task InitializeAsync() => _devHost = await HubsOnlyDevHost.StartAsync("ingestion", partitions: 2, consumerGroup: "splitter");

    private async Task<string> TokenAsync() =>
        (await _http.GetFromJsonAsync<JsonElement>(At("explorer/api/session"))).GetProperty("token").GetString()!;

    private async Task<HttpResponseMessage> SendAsync(string? origin, string? token)
    {
        using var request = new HttpRequestMessage(HttpMethod.Post, At("explorer/api/hubs/ingestion/send?partition=1&sample=3"));
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
    public async Task Send_OwnPageWithToken_SentAndPeekDecodesIt()
    {
        var token = await TokenAsync();
        using var sent = await SendAsync(_devHost!.BaseAddress.GetLeftPart(UriPartial.Authority), token);
        Assert.Equal(HttpStatusCode.OK, sent.StatusCode);
        var sequence = (await sent.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("sequenceNumber").GetInt64();

        var peek = await _http.GetFromJsonAsync<JsonElement>(At($"explorer/api/hubs/ingestion/partitions/1/events?from={sequence}&count=5"));

        var e = Assert.Single(peek.GetProperty("events").EnumerateArray());
        Assert.Equal("end", peek.GetProperty("stoppedBy").GetString());
        Assert.Equal("explorer", e.GetProperty("properties").GetProperty("sentBy").GetString());
        Assert.Equal("ReadingBatch", e.GetProperty("body").GetProperty("format").GetString());
        Assert.Equal(["explorer-sample-00", "explorer-sample-01", "explorer-sample-02"],
            e.GetProperty("body").GetProperty("readings").EnumerateArray().Select(r => r.GetProperty("deviceId").GetString()));
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
