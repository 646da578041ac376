using System.Buffers;
using System.Text;
using SensorPipeline.Core.GeoJson;
using SensorPipeline.Core.Policies;
using SensorPipeline.Core.Processing;
using SensorPipeline.Core.Splitting;
using SensorPipeline.FunctionsHost.Config;
using SensorPipeline.FunctionsHost.Hubs;
using SensorPipeline.FunctionsHost.Invocation;
using SensorPipeline.Fuzz.Targets;
using SensorPipeline.Testing;
using SensorKind = SensorPipeline.Protos.SensorKind;

namespace SensorPipeline.Fuzz;

internal static partial class SeedCorpus
{
    /// <summary>Requests as the local Functions host writes them (the Azure host's wire format) for the splitter.</summary>
    private static IEnumerable<(string, byte[])> HandlerRequests()
    {
        var function = new FunctionDefinition("Splitter", "function.json", new TriggerBinding("events", "ingestion", "splitter", "EventHubConnection", TriggerDataType.Binary), [], null, "127.0.0.1");
        var enqueued = DateTimeOffset.FromUnixTimeMilliseconds(ReadingBatchTarget.NowUnixMs - 1_000);
        var events = new[]
        {
            new ReceivedEvent(41, 4096, enqueued, null, Builders.Batch(Weather("weather-0001", 1)), new Dictionary<string, object?>()),
            new ReceivedEvent(42, 8192, enqueued.AddMilliseconds(3), "device-key", Builders.Batch(Seismic("seismic-0001", 1), Weather("weather-0002", 9)),
                new Dictionary<string, object?> { ["source"] = "loadgen", ["n"] = 3 }),
        };
        yield return ("splitter-two-events", Request(new InvocationBatch(function, "3", events, true, null, enqueued.UtcDateTime, Guid.Empty)));
        yield return ("splitter-retry", Request(new InvocationBatch(function, "0", events[..1], true,
            new RetryState(2, 5, new InvalidOperationException("the store answered 503")), enqueued.UtcDateTime, Guid.Empty)));
        // Arrays instead of JSON strings, and an escaped '+' in the base64: the handler accepts both.
        yield return ("arrays-and-escapes", Encoding.UTF8.GetBytes("""
            {"Metadata":{"PartitionContext":"{\"PartitionId\":\"2\"}","SequenceNumberArray":[5,6],
             "EnqueuedTimeUtcArray":["2026-11-21T22:00:00Z","2026-11-21T23:00:00+01:00"]},
             "Data":{"events":["AQID","AQ\u002BA"]}}
            """));
    }

    private static byte[] Request(InvocationBatch batch)
    {
        var buffer = new ArrayBufferWriter<byte>();
        using var writer = new InvocationRequestWriter();
        writer.Write(buffer, batch);
        return buffer.WrittenSpan.ToArray();
    }

    /// <summary>REST batch bodies in the service's format: text bodies, user properties, a partition key, escapes.</summary>
    private static IEnumerable<(string, byte[])> EventHubsBatches()
    {
        yield return ("two-events", Encoding.UTF8.GetBytes(
            """[{"Body":"reading 1","UserProperties":{"source":"loadgen","n":3,"ok":true,"x":null},"BrokerProperties":{"PartitionKey":"weather-0001"}},{"Body":"reading 2"}]"""));
        yield return ("escaped-body", Encoding.UTF8.GetBytes("""[{"Body":"line\n\"quoted\" \u00e9 \ud83d\ude00","UserProperties":{"v":1.5e3}}]"""));
        yield return ("lowercase-names", Encoding.UTF8.GetBytes("""[{"body":"b","userProperties":{"k":"v"},"brokerProperties":{"partitionKey":"p"}}]"""));
    }

    /// <summary>Bodies the Cosmos DB gateway receives: a document the handler renders, its device-state guard Patch, the
    /// queries verify and re-drive send. The first byte picks the kind (see <see cref="CosmosJsonTarget"/>).</summary>
    private static IEnumerable<(string, byte[])> CosmosBodies()
    {
        yield return ("document-feature", [0, .. RenderedFeature()]);
        yield return ("document-ttl", [0, .. """{"id":"a","deviceId":"d","ttl":60,"nested":{"arr":[1,2,{"x":null}]}}"""u8]);
        yield return ("patch-guard", [1, .. """{"condition":"FROM c WHERE NOT IS_STRING(c.version) OR c.version < '00000000000000000009'","operations":[{"op":"set","path":"/version","value":"00000000000000000009"},{"op":"set","path":"/properties/temperatureC","value":12.5}]}"""u8]);
        yield return ("patch-every-op", [1, .. """{"operations":[{"op":"add","path":"/tags/1","value":"c"},{"op":"replace","path":"/type","value":"F"},{"op":"remove","path":"/tags/0"},{"op":"incr","path":"/properties/sequence","value":1},{"op":"move","from":"/properties/kind","path":"/kind"}]}"""u8]);
        yield return ("query-parameters", [2, .. """{"query":"SELECT c.properties.sequence AS s FROM c WHERE c.deviceId = @d ORDER BY c.id","parameters":[{"name":"@d","value":"weather-0001"}]}"""u8]);
        yield return ("query-aggregate", [2, .. """{"query":"SELECT VALUE COUNT(1) FROM c WHERE IS_DEFINED(c.reason)"}"""u8]);
    }

    /// <summary>A GeoJSON Feature exactly as a processor renders it for the store.</summary>
    private static byte[] RenderedFeature()
    {
        var source = new Core.Readings.SourcePosition("3", 1234, ReadingBatchTarget.NowUnixMs - 1_000);
        var split = new Splitter().Split([new InputEvent(Builders.Batch(Weather("weather-0001", 7)), source)], ReadingBatchTarget.NowUnixMs);
        using var processor = new EnvelopeProcessor(SensorKind.Weather, "weather-processor", new StalenessPolicy(TimeSpan.FromMinutes(5)));
        var result = processor.Process([new InputEvent(split.Of(SensorKind.Weather).Envelopes[0], source)], ReadingBatchTarget.NowUnixMs);
        return result.Bytes(result.Pending[0]).ToArray();
    }

    /// <summary>The SQL the pipeline's tools and handler send, and the grammar's harder corners.</summary>
    private static IEnumerable<(string, byte[])> CosmosQueries()
    {
        string[] queries =
        [
            "SELECT VALUE c.properties.sequence FROM c",
            "SELECT c.properties.sequence AS s, c.properties.enqueuedAt AS e FROM c",
            "SELECT c.id, c.deviceId, c.payloadBase64, c.payloadSha256 FROM c WHERE IS_DEFINED(c.reason)",
            "FROM c WHERE NOT IS_STRING(c.version) OR c.version < '00000000000000000009'",
            "SELECT TOP @n c.id, c[\"n\"] * 2 + 1 AS twice FROM c WHERE c.n BETWEEN -1 AND 10 AND c.s IN ('x', \"y\") ORDER BY c.n DESC",
            "SELECT VALUE {\"k\": ARRAY_LENGTH(c.arr), \"l\": LOWER(c.s) || 'z', \"d\": c.o.p.q ?? false} FROM c OFFSET 1 LIMIT 2",
            "SELECT COUNT(1) AS n, SUM(c.n), MIN(c.s), MAX(c.n), AVG(c.n) FROM c -- a comment",
            "SELECT * FROM c WHERE ST_DISTANCE(c.geometry, {\"type\":\"Point\",\"coordinates\":[-122.3,47.6]}) < 5000",
            "SELECT VALUE 0x1F + 1e3 - -2 % 3 FROM c WHERE c.arr[1][0] = 2 AND STARTSWITH(c.id, 'w', true)",
        ];
        return queries.Select((q, i) => ($"query-{i}", Encoding.UTF8.GetBytes(q)));
    }

    /// <summary>Bodies as the App Insights SDK posts them: newline-delimited envelopes.</summary>
    private static IEnumerable<(string, byte[])> TrackBodies()
    {
        const string Metric = """{"name":"AppMetrics","time":"2026-11-21T12:00:00.0000000Z","iKey":"k","tags":{"ai.cloud.roleInstance":"host-1"},"data":{"baseType":"MetricData","baseData":{"ver":2,"metrics":[{"name":"EventsReceived","kind":"Aggregation","value":7,"count":2,"min":3,"max":4}],"properties":{"_MS.AggregationIntervalMs":"2000","Function":"Splitter","Partition":"3"}}}}""";
        const string Request = """{"name":"AppRequests","time":"2026-11-21T12:00:01Z","iKey":"k","data":{"baseType":"RequestData","baseData":{"ver":2,"id":"1","duration":"00:00:00.010","responseCode":"200","success":true}}}""";
        yield return ("metric", Encoding.UTF8.GetBytes(Metric));
        yield return ("metric-and-request", Encoding.UTF8.GetBytes(Metric + "\n" + Request + "\r\n\n"));
    }
}
