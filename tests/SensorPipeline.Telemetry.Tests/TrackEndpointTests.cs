using System.IO.Compression;
using System.Net;
using System.Net.Http.Headers;
using System.Net.Http.Json;
using System.Text;
using System.Text.Json;
using SensorPipeline.ApplicationInsights.Summary;

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
