using System.IO.Compression;
using System.Net;
using System.Net.Http.Headers;
using System.Text;

namespace SensorPipeline.Telemetry.Tests;

/// <summary>The /v2/track contract beyond the happy path: partial acceptance, unreadable bodies, size limits.</summary>
public sealed class TrackEndpointTests
{
    private const string Metric = """{"name":"AppMetrics","time":"2026-11-21T12:00:00.0000000Z","iKey":"k","data":{"baseType":"MetricData","baseData":{"ver":2,"metrics":[{"name":"EventsReceived","kind":"Aggregation","value":7,"count":2,"min":3,"max":4}],"properties":{"_MS.AggregationIntervalMs":"2000","Function":"Splitter","Partition":"3"}}}}""";
    private const string Trace = """{"name":"AppTraces","time":"2026-11-21T12:00:00.0000000Z","iKey":"k","data":{"baseType":"MessageData","baseData":{"ver":2,"message":"hello"}}}""";

    [Fact]
    public async Task Post_GzipWithOneBadLine_Answers206WithItsIndex()
    {
        await using var server = await TelemetryServer.StartAsync();

        using var response = await PostAsync(server, Gzip(string.Join('\n', Metric, "{not json", Trace)), gzip: true);
        var body = await response.Content.ReadFromJsonAsync<JsonElement>();

        Assert.Equal(HttpStatusCode.PartialContent, response.StatusCode);
        Assert.Equal(3, body.GetProperty("itemsReceived").GetInt32());
        Assert.Equal(2, body.GetProperty("itemsAccepted").GetInt32());
        var error = Assert.Single(body.GetProperty("errors").EnumerateArray());
        Assert.Equal(1, error.GetProperty("index").GetInt32());
        Assert.Equal(400, error.GetProperty("statusCode").GetInt32());
        var summary = await server.SummaryAsync();
        Assert.Equal((1L, 1L), (summary.Ingestion.MetricItems, summary.Ingestion.OtherItems));
    }

    [Fact]
    public async Task Post_PlainNdjson_IsAcceptedAndParsed()
    {
        await using var server = await TelemetryServer.StartAsync();

        using var response = await PostAsync(server, Encoding.UTF8.GetBytes(Metric + "\r\n"), gzip: false);
        var body = await response.Content.ReadFromJsonAsync<JsonElement>();
        var points = (await server.Http.GetFromJsonAsync<JsonElement>(server.At("telemetry/metrics"))).GetProperty("points");

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("""{"itemsReceived":1,"itemsAccepted":1,"errors":[]}""", body.GetRawText());
        var point = Assert.Single(points.EnumerateArray());
        Assert.Equal(("EventsReceived", 7.0, 2L, 2000.0, "3"),
            (point.GetProperty("name").GetString(), point.GetProperty("sum").GetDouble(), point.GetProperty("count").GetInt64(),
             point.GetProperty("intervalMs").GetDouble(), point.GetProperty("dimensions").GetProperty("Partition").GetString()));
    }

    [Fact]
    public async Task Summary_FromTo_CountsOnlyThePeriodsThatStartedInTheRange()
    {
        await using var server = await TelemetryServer.StartAsync();
        var later = Metric.Replace("12:00:00.0000000Z", "12:00:10.0000000Z", StringComparison.Ordinal).Replace("\"value\":7", "\"value\":5", StringComparison.Ordinal);
        using var response = await PostAsync(server, Encoding.UTF8.GetBytes(Metric + "\n" + later), gzip: false);
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);

        async Task<long> EventsAsync(string query) =>
            (await server.Http.GetFromJsonAsync<TelemetrySummary>(server.At("telemetry/summary?" + query)))!.Functions.SingleOrDefault()?.EventsReceived ?? 0;

        Assert.Equal(7, await EventsAsync("from=2026-11-21T12:00:00Z&to=2026-11-21T12:00:10Z")); // to is exclusive
        Assert.Equal(5, await EventsAsync("from=2026-11-21T12:00:10Z&to=2026-11-21T12:01:00Z"));
        Assert.Equal(12, await EventsAsync("from=2026-11-21T11:00:00Z&to=2026-11-21T13:00:00Z"));
        Assert.Equal(0, await EventsAsync("from=2026-11-21T12:00:01Z&to=2026-11-21T12:00:09Z"));
        foreach (var bad in new[] { "from=2026-11-21T12:00:10Z&to=2026-11-21T12:00:00Z", "from=2026-11-21T12:00:00Z", "from=soon&to=later", "from=2026-11-21T12:00:00Z&to=2026-11-21T12:01:00Z&window=60" })
        {
            using var answer = await server.Http.GetAsync(server.At("telemetry/summary?" + bad));
            Assert.Equal(HttpStatusCode.BadRequest, answer.StatusCode);
        }
    }

    [Fact]
    public async Task Post_GzipHeaderButNotGzip_Answers400AndKeepsNothing()
    {
        await using var server = await TelemetryServer.StartAsync();

        using var response = await PostAsync(server, [0x1f, 0x8b, 1, 2, 3, 4, 5], gzip: true);

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Contains("gzip", await response.Content.ReadAsStringAsync(), StringComparison.Ordinal);
        Assert.Equal(0, (await server.SummaryAsync()).Ingestion.Requests);
    }

    [Fact]
    public async Task Post_EmptyBody_Answers400()
    {
        await using var server = await TelemetryServer.StartAsync();

        using var response = await PostAsync(server, Encoding.UTF8.GetBytes("\n\n"), gzip: false);

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
    }

    [Fact]
    public async Task Post_DecompressesBeyondTheLimit_Answers413()
    {
        await using var server = await TelemetryServer.StartAsync(settings: new Dictionary<string, string?>
        {
            ["Telemetry:MaxRequestBytes"] = "1024",
            ["Telemetry:MaxDecompressedBytes"] = "4096",
        });

        // 100 envelopes compress to well under 1 KiB but decompress far past 4 KiB: the gzip-bomb bound.
        using var response = await PostAsync(server, Gzip(string.Join('\n', Enumerable.Repeat(Metric, 100))), gzip: true);

        Assert.Equal(HttpStatusCode.RequestEntityTooLarge, response.StatusCode);
        Assert.Contains("Telemetry__MaxDecompressedBytes", await response.Content.ReadAsStringAsync(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Post_AnItemOverTheItemLimit_RejectedAloneOthersKept()
    {
        await using var server = await TelemetryServer.StartAsync();
        var huge = Metric.Replace("\"Partition\":\"3\"", $"\"Partition\":\"3\",\"padding\":\"{new string('p', 70_000)}\"", StringComparison.Ordinal);

        using var response = await PostAsync(server, Gzip(string.Join('\n', Metric, huge)), gzip: true);
        var body = await response.Content.ReadFromJsonAsync<JsonElement>();

        // As the service answers an item over its 64 KB limit: that item refused (206, its index), the others kept.
        Assert.Equal(HttpStatusCode.PartialContent, response.StatusCode);
        var error = Assert.Single(body.GetProperty("errors").EnumerateArray());
        Assert.Equal(1, error.GetProperty("index").GetInt32());
        Assert.Contains("65536", error.GetProperty("message").GetString(), StringComparison.Ordinal);
        var points = (await server.Http.GetFromJsonAsync<JsonElement>(server.At("telemetry/metrics"))).GetProperty("points");
        Assert.Single(points.EnumerateArray());
    }

    [Fact]
    public async Task Store_IsBoundedByBytes_TheOldestPointsGoFirst()
    {
        await using var server = await TelemetryServer.StartAsync(settings: new Dictionary<string, string?> { ["Telemetry:MaxStoredBytes"] = "1048576" });

        // 200 items of ~20 KB of dimensions each (under the item limit): ~8 MB held as .NET strings, over the 1 MiB bound.
        for (var i = 0; i < 200; i++)
        {
            var item = Metric.Replace("\"Partition\":\"3\"", $"\"Partition\":\"{i}\",\"padding\":\"{new string('p', 20_000)}\"", StringComparison.Ordinal);
            using var response = await PostAsync(server, Encoding.UTF8.GetBytes(item), gzip: false);
            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        }

        var points = (await server.Http.GetFromJsonAsync<JsonElement>(server.At("telemetry/metrics"))).GetProperty("points").EnumerateArray().ToList();
        Assert.InRange(points.Count, 1, 30);
        Assert.Equal("199", points[^1].GetProperty("dimensions").GetProperty("Partition").GetString());
    }

    [Theory]
    [InlineData("Host", "rebound.example", HttpStatusCode.Forbidden)]
    [InlineData("Origin", "https://hostile.example", HttpStatusCode.Forbidden)]
    [InlineData("Origin", "null", HttpStatusCode.Forbidden)]
    [InlineData("Content-Type", "text/plain", HttpStatusCode.UnsupportedMediaType)]
    public async Task Post_FromAPageOnAnotherSite_IsRefusedAndKeepsNothing(string header, string value, HttpStatusCode expected)
    {
        // A page in the developer's browser can POST here without a preflight only with a CORS-safelisted content type
        // (text/plain; gzip is recognised by its bytes) and always sends its Origin; DNS rebinding changes the Host.
        // The SDK sends application/x-json-stream, no Origin, and the endpoint's own loopback Host.
        await using var server = await TelemetryServer.StartAsync();
        using var request = new HttpRequestMessage(HttpMethod.Post, server.At("v2/track")) { Content = new ByteArrayContent(Gzip(Metric)) };
        request.Content.Headers.ContentType = new MediaTypeHeaderValue("application/x-json-stream");
        if (header == "Content-Type")
        {
            request.Content.Headers.ContentType = new MediaTypeHeaderValue(value);
        }
        else
        {
            request.Headers.TryAddWithoutValidation(header, value);
        }

        using var response = await server.Http.SendAsync(request);

        Assert.Equal(expected, response.StatusCode);
        var points = (await server.Http.GetFromJsonAsync<JsonElement>(server.At("telemetry/metrics"))).GetProperty("points");
        Assert.Empty(points.EnumerateArray());
    }

    [Fact]
    public async Task Start_BadLimit_FailsNamingTheSetting()
    {
        var e = await Assert.ThrowsAsync<Microsoft.Extensions.Options.OptionsValidationException>(() =>
            TelemetryServer.StartAsync(settings: new Dictionary<string, string?> { ["Telemetry:MaxMetricPoints"] = "5" }));

        Assert.Contains("Telemetry__MaxMetricPoints", e.Message, StringComparison.Ordinal);
    }

    private static async Task<HttpResponseMessage> PostAsync(TelemetryServer server, byte[] body, bool gzip)
    {
        var content = new ByteArrayContent(body);
        content.Headers.ContentType = new MediaTypeHeaderValue("application/x-json-stream");
        if (gzip)
        {
            content.Headers.ContentEncoding.Add("gzip");
        }

        return await server.Http.PostAsync(server.At("v2/track"), content);
    }

    private static byte[] Gzip(string text)
    {
        using var output = new MemoryStream();
        using (var zip = new GZipStream(output, CompressionLevel.Optimal))
        {
            zip.Write(Encoding.UTF8.GetBytes(text));
        }

        return output.ToArray();
    }
}
