using System.Net;
using System.Text;
using System.Text.Json;

namespace SensorPipeline.EventHubs.Tests;

/// <summary>The Event Hubs REST send API through real HTTP against a running devhost.</summary>
public sealed class HttpSendTests(DevHostFixture fixture) : IClassFixture<DevHostFixture>
{
    private HttpClient Client => fixture.DevHost.Client;

    [Fact]
    public async Task PostSingle_WithHeaders_StoredAsRawBytesWithTypedProperties()
    {
        var body = Enumerable.Range(0, 256).Select(i => (byte)i).ToArray();
        using var request = Http.Post("/ingestion/partitions/1/messages?timeout=60&api-version=2014-01", Http.Raw(body));
        request.Headers.Add("BrokerProperties", "{\"PartitionKey\":\"pk-1\",\"Label\":\"ignored\"}");
        request.Headers.Add("Temp", "21.5");
        request.Headers.Add("Count", "3");
        request.Headers.Add("Big", "5000000000");
        request.Headers.Add("Flag", "true");
        request.Headers.Add("Name", "abc");
        request.Headers.Add("Quoted", "\"7\"");
        request.Headers.Add("User-Agent", "test");
        request.Headers.Add("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
        request.Headers.Add("x-ms-client-request-id", "r1");

        using var response = await Client.SendAsync(request);

        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
        Assert.Equal("1", Http.Header(response, "X-Partition-Id"));
        var seq = long.Parse(Http.Header(response, "X-First-Sequence-Number"), System.Globalization.CultureInfo.InvariantCulture);
        var stored = (await Http.GetJsonAsync(Client, $"/ingestion/partitions/1/events?from={seq}&max=1"))[0];
        Assert.Equal(seq, stored.GetProperty("sequenceNumber").GetInt64());
        Assert.Equal(body, stored.GetProperty("bodyBase64").GetBytesFromBase64());
        Assert.Equal("pk-1", stored.GetProperty("partitionKey").GetString());
        var properties = stored.GetProperty("properties");
        Assert.Equal(["Big", "Count", "Flag", "Name", "Quoted", "Temp"], properties.EnumerateObject().Select(p => p.Name).Order(StringComparer.Ordinal));
        Assert.Equal(21.5, properties.GetProperty("Temp").GetDouble());
        Assert.Equal(3, properties.GetProperty("Count").GetInt32());
        Assert.Equal(5000000000L, properties.GetProperty("Big").GetInt64());
        Assert.True(properties.GetProperty("Flag").GetBoolean());
        Assert.Equal("abc", properties.GetProperty("Name").GetString());
        Assert.Equal("7", properties.GetProperty("Quoted").GetString());
    }

    [Fact]
    public async Task PostBatch_BodiesStoredAsUtf8_SameKeySamePartitionAsSingle()
    {
        const string Json = """
            [{"Body":"caf\u00e9 \"one\"\n","UserProperties":{"i":1,"l":5000000000,"d":0.5,"b":false,"s":"x","n":null},"BrokerProperties":{"PartitionKey":"dev-7"}},
             {"Body":"two","BrokerProperties":{"PartitionKey":"dev-7","MessageId":"m2"}}]
            """;
        using var batch = await Client.SendAsync(Http.Post("/ingestion/messages", Http.Batch(Json)));
        using var single = Http.Post("/ingestion/messages", Http.Raw("three"u8.ToArray()));
        single.Headers.Add("BrokerProperties", "{\"PartitionKey\":\"dev-7\"}");
        using var singleResponse = await Client.SendAsync(single);

        Assert.Equal(HttpStatusCode.Created, batch.StatusCode);
        Assert.Equal(HttpStatusCode.Created, singleResponse.StatusCode);
        var partition = Http.Header(batch, "X-Partition-Id");
        Assert.Equal(partition, Http.Header(singleResponse, "X-Partition-Id"));
        var first = long.Parse(Http.Header(batch, "X-First-Sequence-Number"), System.Globalization.CultureInfo.InvariantCulture);
        Assert.Equal(first + 1, long.Parse(Http.Header(batch, "X-Last-Sequence-Number"), System.Globalization.CultureInfo.InvariantCulture));
        var events = await Http.GetJsonAsync(Client, $"/ingestion/partitions/{partition}/events?from={first}&max=3");
        Assert.Equal("café \"one\"\n", Encoding.UTF8.GetString(events[0].GetProperty("bodyBase64").GetBytesFromBase64()));
        Assert.Equal(["two", "three"], events.EnumerateArray().Skip(1).Select(e => e.GetProperty("body").GetString()));
        var p = events[0].GetProperty("properties");
        Assert.Equal((1, 5000000000L, 0.5, JsonValueKind.False, "x", JsonValueKind.Null),
            (p.GetProperty("i").GetInt32(), p.GetProperty("l").GetInt64(), p.GetProperty("d").GetDouble(), p.GetProperty("b").ValueKind, p.GetProperty("s").GetString(), p.GetProperty("n").ValueKind));
        Assert.All(events.EnumerateArray(), e => Assert.Equal("dev-7", e.GetProperty("partitionKey").GetString()));
    }

    [Fact]
    public async Task Post_ToAPublisher_PublisherNameActsAsPartitionKey()
    {
        using var viaPublisher = await Client.SendAsync(Http.Post("/seismic/publishers/station-9/messages", Http.Raw("a"u8.ToArray())));
        using var viaKey = Http.Post("/seismic/messages", Http.Raw("b"u8.ToArray()));
        viaKey.Headers.Add("BrokerProperties", "{\"PartitionKey\":\"station-9\"}");
        using var viaKeyResponse = await Client.SendAsync(viaKey);

        Assert.Equal(HttpStatusCode.Created, viaPublisher.StatusCode);
        var partition = Http.Header(viaPublisher, "X-Partition-Id");
        Assert.Equal(partition, Http.Header(viaKeyResponse, "X-Partition-Id"));
        var seq = Http.Header(viaPublisher, "X-First-Sequence-Number");
        var stored = (await Http.GetJsonAsync(Client, $"/seismic/partitions/{partition}/events?from={seq}&max=1"))[0];
        Assert.Equal("station-9", stored.GetProperty("partitionKey").GetString());
    }

    [Fact]
    public async Task Post_WithoutKey_RoundRobinOverPartitions()
    {
        var partitions = new List<string>();
        for (var i = 0; i < 4; i++)
        {
            using var response = await Client.SendAsync(Http.Post("/weather/messages", Http.Raw("w"u8.ToArray())));
            Assert.Equal(HttpStatusCode.Created, response.StatusCode);
            partitions.Add(Http.Header(response, "X-Partition-Id"));
        }

        Assert.Equal(["0", "1", "2", "3"], partitions.Order(StringComparer.Ordinal));
    }

    public static TheoryData<string, HttpStatusCode> Rejections => new()
    {
        { "unknown hub", HttpStatusCode.NotFound },
        { "unknown partition", HttpStatusCode.NotFound },
        { "body over 1 MiB", HttpStatusCode.RequestEntityTooLarge },
        { "batch over 1 MiB", HttpStatusCode.RequestEntityTooLarge },
        { "batch of 330,000 empty events", HttpStatusCode.RequestEntityTooLarge },
        { "malformed batch JSON", HttpStatusCode.BadRequest },
        { "batch not an array", HttpStatusCode.BadRequest },
        { "empty batch", HttpStatusCode.BadRequest },
        { "batch body not a string", HttpStatusCode.BadRequest },
        { "batch event without body", HttpStatusCode.BadRequest },
        { "batch with two partition keys", HttpStatusCode.BadRequest },
        { "malformed BrokerProperties", HttpStatusCode.BadRequest },
        { "lone surrogate in BrokerProperties", HttpStatusCode.BadRequest },
        { "property number out of range", HttpStatusCode.BadRequest },
        { "invalid UTF-8 in a property value", HttpStatusCode.BadRequest },
        { "invalid UTF-8 in a property name", HttpStatusCode.BadRequest },
        { "invalid UTF-8 in an escaped body", HttpStatusCode.BadRequest },
        { "invalid UTF-8 in a body", HttpStatusCode.BadRequest },
        { "invalid UTF-8 in a partition key", HttpStatusCode.BadRequest },
        { "no authorization", HttpStatusCode.Unauthorized },
        { "wrong key", HttpStatusCode.Unauthorized },
        { "wrong key name", HttpStatusCode.Unauthorized },
        { "expired token", HttpStatusCode.Unauthorized },
        { "token for another hub", HttpStatusCode.Unauthorized },
        { "token for another publisher", HttpStatusCode.Unauthorized },
        { "bearer token", HttpStatusCode.Unauthorized },
    };

    [Theory]
    [MemberData(nameof(Rejections))]
    public async Task Post_BadRequest_ClearErrorAndNothingChanges(string scenario, HttpStatusCode expected)
    {
        var before = await Http.SnapshotAsync(Client);
        using var request = scenario switch
        {
            "unknown hub" => Http.Post("/nohub/messages", Http.Raw([1])),
            "unknown partition" => Http.Post("/ingestion/partitions/4/messages", Http.Raw([1])),
            "body over 1 MiB" => Http.Post("/ingestion/messages", Http.Raw(new byte[(1024 * 1024) + 1])),
            "batch over 1 MiB" => Http.Post("/ingestion/messages", Http.Batch($"[{{\"Body\":\"{new string('a', 600_000)}\"}},{{\"Body\":\"{new string('b', 600_000)}\"}}]")),
            "batch of 330,000 empty events" => Http.Post("/ingestion/messages", Http.Batch("[" + string.Join(",", Enumerable.Repeat("{\"Body\":\"\"}", 330_000)) + "]")),
            "malformed batch JSON" => Http.Post("/ingestion/messages", Http.Batch("[{\"Body\":\"a\"},")),
            "batch not an array" => Http.Post("/ingestion/messages", Http.Batch("{\"Body\":\"a\"}")),
            "empty batch" => Http.Post("/ingestion/messages", Http.Batch("[]")),
            "batch body not a string" => Http.Post("/ingestion/messages", Http.Batch("[{\"Body\":42}]")),
            "batch event without body" => Http.Post("/ingestion/messages", Http.Batch("[{\"Body\":\"a\"},{\"UserProperties\":{}}]")),
            "batch with two partition keys" => Http.Post("/ingestion/messages",
                Http.Batch("[{\"Body\":\"a\",\"BrokerProperties\":{\"PartitionKey\":\"k1\"}},{\"Body\":\"b\",\"BrokerProperties\":{\"PartitionKey\":\"k2\"}}]")),
            "property number out of range" => Http.Post("/ingestion/messages", Http.Batch("[{\"Body\":\"a\",\"UserProperties\":{\"n\":1e400}}]")),
            "invalid UTF-8 in a property value" => Http.Post("/ingestion/messages", Http.BatchBytes("[{\"Body\":\"a\",\"UserProperties\":{\"s\":\""u8, [0xC3, 0x28], "\"}}]"u8)),
            "invalid UTF-8 in a property name" => Http.Post("/ingestion/messages", Http.BatchBytes("[{\"Body\":\"a\",\"UserProperties\":{\""u8, [0xFF], "\":1}}]"u8)),
            "invalid UTF-8 in an escaped body" => Http.Post("/ingestion/messages", Http.BatchBytes("[{\"Body\":\"\\n"u8, [0xE2, 0x82], "\"}]"u8)),
            "invalid UTF-8 in a body" => Http.Post("/ingestion/messages", Http.BatchBytes("[{\"Body\":\"a"u8, [0x80], "\"}]"u8)),
            "invalid UTF-8 in a partition key" => Http.Post("/ingestion/messages", Http.BatchBytes("[{\"Body\":\"a\",\"BrokerProperties\":{\"PartitionKey\":\""u8, [0xF0, 0x28], "\"}}]"u8)),
            "lone surrogate in BrokerProperties" => WithHeader(Http.Post("/ingestion/messages", Http.Raw([1])), "BrokerProperties", "{\"PartitionKey\":\"\\uD800\"}"),
            "malformed BrokerProperties" => WithHeader(Http.Post("/ingestion/messages", Http.Raw([1])), "BrokerProperties", "{PartitionKey:"),
            "no authorization" => WithoutAuthorization(Http.Post("/ingestion/messages", Http.Raw([1]))),
            "wrong key" => Http.Post("/ingestion/messages", Http.Raw([1]), Sas.Token("sb://ns/", key: "not-the-key")),
            "wrong key name" => Http.Post("/ingestion/messages", Http.Raw([1]), Sas.Token("sb://ns/", keyName: "SomeoneElse")),
            "expired token" => Http.Post("/ingestion/messages", Http.Raw([1]), Sas.Token("sb://ns/", expiry: DateTimeOffset.UtcNow.AddMinutes(-1).ToUnixTimeSeconds())),
            "token for another hub" => Http.Post("/ingestion/messages", Http.Raw([1]), Sas.Token("sb://ns/weather")),
            "token for another publisher" => Http.Post("/ingestion/publishers/p2/messages", Http.Raw([1]), Sas.Token("sb://ns/ingestion/publishers/p1")),
            "bearer token" => Http.Post("/ingestion/messages", Http.Raw([1]), "Bearer eyJhbGciOi"),
            _ => throw new ArgumentOutOfRangeException(nameof(scenario)),
        };

        using var response = await Client.SendAsync(request);

        Assert.Equal(expected, response.StatusCode);
        if (response.Content.Headers.ContentLength > 0)
        {
            using var problem = JsonDocument.Parse(await response.Content.ReadAsStringAsync());
            Assert.False(string.IsNullOrWhiteSpace(problem.RootElement.GetProperty("detail").GetString()));
        }

        Assert.Equal(before, await Http.SnapshotAsync(Client));
    }

    [Theory]
    [InlineData("sb://emulatorns1.servicebus.windows.net/", "/ingestion/messages")]
    [InlineData("http://127.0.0.1/ingestion", "/ingestion/partitions/0/messages")]
    [InlineData("https://emulatorns1.servicebus.windows.net/INGESTION/", "/ingestion/messages")]
    [InlineData("sb://localhost/ingestion/publishers/p1", "/ingestion/publishers/p1/messages")]
    public async Task Post_TokenCoveringResourceAnyScheme_Accepted(string resource, string path)
    {
        using var response = await Client.SendAsync(Http.Post(path, Http.Raw("ok"u8.ToArray()), Sas.Token(resource)));
        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
    }

    [Fact]
    public async Task Status_Namespace_ListsHubsPartitionsAndConsumerGroups()
    {
        var status = await Http.GetJsonAsync(Client, "/status");

        Assert.Equal("emulatorNs1", status.GetProperty("namespace").GetString());
        Assert.Equal("Always", status.GetProperty("durability").GetString());
        var hubs = status.GetProperty("hubs").EnumerateArray().ToList();
        Assert.Equal(["ingestion", "weather", "seismic"], hubs.Select(h => h.GetProperty("name").GetString()));
        Assert.All(hubs, h => Assert.Equal(4, h.GetProperty("partitions").GetArrayLength()));
        Assert.Contains("splitter", hubs[0].GetProperty("consumerGroups").EnumerateArray().Select(g => g.GetString()));
        var partition = hubs[0].GetProperty("partitions")[0];
        foreach (var field in new[] { "id", "beginningSequenceNumber", "lastSequenceNumber", "bytes" })
        {
            Assert.True(partition.TryGetProperty(field, out _), field);
        }

        // The devhost program composes the Functions host's section into /status; this app root holds no function app.
        var functionsHost = status.GetProperty("functionsHost");
        Assert.Equal(0, functionsHost.GetProperty("functions").GetArrayLength());
        Assert.Equal(JsonValueKind.Null, functionsHost.GetProperty("handlerPid").ValueKind);
    }

    [Fact]
    public async Task StatusCommand_RunningDevHost_PrintsTable()
    {
        var (exitCode, output, errors) = await RunningDevHost.RunToExitAsync("status", "--url", fixture.DevHost.BaseAddress.ToString());

        Assert.True(exitCode == 0, errors);
        Assert.Contains("hub", output, StringComparison.Ordinal);
        Assert.Contains("weather-processor", output, StringComparison.Ordinal);
        Assert.Contains("functions host: no function app", output, StringComparison.Ordinal);
        Assert.Equal(12, output.Split('\n').Count(l => l.StartsWith("ingestion", StringComparison.Ordinal) || l.StartsWith("weather", StringComparison.Ordinal) || l.StartsWith("seismic", StringComparison.Ordinal)));
    }

    private static HttpRequestMessage WithHeader(HttpRequestMessage request, string name, string value)
    {
        request.Headers.TryAddWithoutValidation(name, value);
        return request;
    }

    private static HttpRequestMessage WithoutAuthorization(HttpRequestMessage request)
    {
        request.Headers.Remove("Authorization");
        return request;
    }
}
