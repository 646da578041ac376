using System.Buffers;
using System.Text;
using SensorPipeline.FunctionsHost.Config;
using SensorPipeline.FunctionsHost.Hubs;
using SensorPipeline.FunctionsHost.Invocation;

namespace SensorPipeline.FunctionsHost.Tests;

/// <summary>The request body writer on its own, for the cases the integration tests do not run.</summary>
[Trait("Category", "Fast")]
public sealed class RequestWriterTests
{
    private static JsonElement Write(TriggerDataType dataType, RetryState? retry, params ReceivedEvent[] events)
    {
        var function = new FunctionDefinition("F", "f.json", new TriggerBinding("items", "hub", "cg", "Conn", dataType), [], null, "ns.example");
        var batch = new InvocationBatch(function, "2", events, false, retry, new DateTime(2026, 1, 2, 3, 4, 5, 600, DateTimeKind.Utc), Guid.Empty);
        var buffer = new ArrayBufferWriter<byte>();
        using var writer = new InvocationRequestWriter();
        writer.Write(buffer, batch);
        return JsonDocument.Parse(buffer.WrittenMemory).RootElement.Clone();
    }

    private static ReceivedEvent Event(long sequence, string body, string? key = null, Dictionary<string, object?>? properties = null) =>
        new(sequence, sequence * 100, new DateTimeOffset(2026, 1, 2, 3, 4, 5, TimeSpan.Zero).AddTicks(1234567), key, Encoding.UTF8.GetBytes(body), properties ?? []);

    [Fact]
    public void Write_DataTypeString_BodiesAsUtf8TextInsideTheJsonString()
    {
        var body = Write(TriggerDataType.Text, null, Event(0, "line\n\"q\""), Event(1, "é"));
        var data = body.GetProperty("Data").GetProperty("items").GetString()!;
        Assert.Equal("[\"line\\n\\\"q\\\"\",\"é\"]", data);
    }

    [Fact]
    public void EnqueuedTimes_MillisecondPrecision_TrailingZerosTrimmed()
    {
        var body = Write(TriggerDataType.Binary, null, Event(5, "x"));
        Assert.Equal("[\"2026-01-02T03:04:05.123\"]", body.GetProperty("Metadata").GetProperty("EnqueuedTimeUtcArray").GetString());
        Assert.Equal("2026-01-02T03:04:05.6Z", body.GetProperty("Metadata").GetProperty("sys").GetProperty("UtcNow").GetString());
    }

    [Fact]
    public void Write_PartitionKey_InArrayAndSystemProperties()
    {
        var metadata = Write(TriggerDataType.Binary, null, Event(0, "x", key: "dev-1")).GetProperty("Metadata");
        Assert.Equal("[\"dev-1\"]", metadata.GetProperty("PartitionKeyArray").GetString());
        using var system = JsonDocument.Parse(metadata.GetProperty("SystemPropertiesArray").GetString()!);
        Assert.Equal("dev-1", system.RootElement[0].GetProperty("x-opt-partition-key").GetString());
        Assert.Equal("dev-1", system.RootElement[0].GetProperty("PartitionKey").GetString());
    }

    [Fact]
    public void Write_Properties_NewtonsoftValueFormats()
    {
        var properties = new Dictionary<string, object?> { ["d"] = 2.0, ["t"] = new DateTimeOffset(2026, 1, 2, 3, 4, 5, TimeSpan.Zero), ["b"] = new byte[] { 1, 2 }, ["n"] = null };
        var text = Write(TriggerDataType.Binary, null, Event(0, "x", properties: properties)).GetProperty("Metadata").GetProperty("PropertiesArray").GetString()!;
        Assert.Equal("[{\"d\":2.0,\"t\":\"2026-01-02T03:04:05+00:00\",\"b\":\"AQI=\",\"n\":null}]", text);
    }

    [Fact]
    public void RetryContext_AfterAFailure_CarriesTheException()
    {
        var failure = new HttpRequestException("Response status code does not indicate success: 500 (Internal Server Error).");
        var retry = Write(TriggerDataType.Binary, new RetryState(2, 5, failure), Event(0, "x")).GetProperty("Metadata").GetProperty("RetryContext");
        Assert.Equal(2, retry.GetProperty("RetryCount").GetInt32());
        Assert.Equal(5, retry.GetProperty("MaxRetryCount").GetInt32());
        Assert.Equal("Exception while executing function: Functions.F", retry.GetProperty("Exception").GetProperty("Message").GetString());
        Assert.Equal("System.Net.Http.HttpRequestException", retry.GetProperty("Exception").GetProperty("InnerException").GetProperty("ClassName").GetString());
    }

    [Fact]
    public void Write_NoRetryPolicy_NoRetryContext() =>
        Assert.False(Write(TriggerDataType.Binary, null, Event(0, "x")).GetProperty("Metadata").TryGetProperty("RetryContext", out _));
}
