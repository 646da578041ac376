using System.Net;
using System.Text.Json;

namespace SensorPipeline.EventHubs.Tests;

/// <summary>devhost's admin and peek endpoints refuse what a web page could send (simple cross-origin requests, DNS
/// rebinding), and the disk-full switch makes sends answer 503 + Retry-After until it is cleared.</summary>
public sealed class AdminEndpointTests(DevHostFixture fixture) : IClassFixture<DevHostFixture>
{
    // A client without the admin header, as a browser is.
    private static readonly HttpClient Browser = new() { Timeout = TimeSpan.FromSeconds(30) };

    public static TheoryData<string, string> BrowserLike => new()
    {
        { "GET", "simple GET, no header" },
        { "GET", "header, rebound Host" },
        { "GET", "header, foreign Origin" },
        { "PUT", "simple form request from a foreign page" },
        { "PUT", "header, rebound Host" },
        { "DELETE", "header, foreign Origin" },
    };

    [Theory]
    [MemberData(nameof(BrowserLike))]
    public async Task Admin_BrowserLikeRequest_Forbidden(string method, string scenario)
    {
        var path = method == "GET" ? "/ingestion/partitions/0/events?from=0&max=1" : "/admin/eventhubs/disk-full";
        using var request = new HttpRequestMessage(new HttpMethod(method), new Uri(fixture.DevHost.BaseAddress, path));
        switch (scenario)
        {
            case "simple form request from a foreign page":
                request.Content = new FormUrlEncodedContent([new("x", "1")]);
                request.Headers.Add("Origin", "http://evil.example");
                break;
            case "header, rebound Host":
                request.Headers.Add("X-DevHost-Admin", "1");
                request.Headers.Host = "evil.example:" + fixture.DevHost.BaseAddress.Port;
                break;
            case "header, foreign Origin":
                request.Headers.Add("X-DevHost-Admin", "1");
                request.Headers.Add("Origin", "http://evil.example");
                break;
        }

        using var response = await Browser.SendAsync(request);

        Assert.Equal(HttpStatusCode.Forbidden, response.StatusCode);
        using var problem = JsonDocument.Parse(await response.Content.ReadAsStringAsync());
        Assert.False(string.IsNullOrWhiteSpace(problem.RootElement.GetProperty("detail").GetString()));
        var status = await Http.GetJsonAsync(fixture.DevHost.Client, "/status");
        Assert.False(status.GetProperty("diskFullInjected").GetBoolean());
    }

    [Theory]
    [InlineData("localhost")]
    [InlineData("127.0.0.1")]
    public async Task Admin_LoopbackRequestWithTheHeader_Served(string host)
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, new Uri(fixture.DevHost.BaseAddress, "/ingestion/partitions/0/events?from=0&max=1"));
        request.Headers.Add("X-DevHost-Admin", "1");
        request.Headers.Host = host + ":" + fixture.DevHost.BaseAddress.Port;
        using var response = await Browser.SendAsync(request);
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
    }

    [Fact]
    public async Task DiskFull_SendsGet503WithRetryAfter_ThenRecoverWithoutLoss()
    {
        var client = fixture.DevHost.Client;
        using var before = await client.SendAsync(Http.Post("/weather/partitions/0/messages", Http.Raw("before"u8.ToArray())));
        Assert.Equal(HttpStatusCode.Created, before.StatusCode);
        var first = long.Parse(Http.Header(before, "X-First-Sequence-Number"), System.Globalization.CultureInfo.InvariantCulture);

        (await client.PutAsync("/admin/eventhubs/disk-full", null)).EnsureSuccessStatusCode();
        try
        {
            using var refused = await client.SendAsync(Http.Post("/weather/partitions/0/messages", Http.Raw("refused"u8.ToArray())));
            Assert.Equal(HttpStatusCode.ServiceUnavailable, refused.StatusCode);
            Assert.True(refused.Headers.RetryAfter?.Delta > TimeSpan.Zero, "a 503 says when to retry");
            Assert.Contains("nothing was acknowledged", await refused.Content.ReadAsStringAsync(), StringComparison.Ordinal);
            Assert.True((await Http.GetJsonAsync(client, "/status")).GetProperty("diskFullInjected").GetBoolean());
        }
        finally
        {
            (await client.DeleteAsync("/admin/eventhubs/disk-full")).EnsureSuccessStatusCode();
        }

        using var after = await client.SendAsync(Http.Post("/weather/partitions/0/messages", Http.Raw("after"u8.ToArray())));
        Assert.Equal(HttpStatusCode.Created, after.StatusCode);
        Assert.Equal((first + 1).ToString(System.Globalization.CultureInfo.InvariantCulture), Http.Header(after, "X-First-Sequence-Number"));
        var stored = await Http.GetJsonAsync(client, $"/weather/partitions/0/events?from={first}&max=10");
        Assert.Equal(["before", "after"], stored.EnumerateArray().Select(e => e.GetProperty("body").GetString()));
    }
}
