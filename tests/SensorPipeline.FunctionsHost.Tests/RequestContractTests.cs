using System.Globalization;
using System.Text;

namespace SensorPipeline.FunctionsHost.Tests;

/// <summary>The request devhost sends, checked as the handler received it over real HTTP — one test per rule of the
/// contract in emulators/SensorPipeline.FunctionsHost/README.md.</summary>
public sealed class RequestContractTests(RequestContractTests.Fixture fixture) : IClassFixture<RequestContractTests.Fixture>
{
    private readonly TestApp _app = fixture.App;
    private readonly Record _record = fixture.Record;

    /// <summary>One devhost run, one invocation of two events, shared by every rule below.</summary>
    public sealed class Fixture : IAsyncLifetime
    {
        public TestApp App { get; } = new(retry: """{"strategy": "fixedDelay", "maxRetryCount": 1, "delayInterval": "00:00:00.050"}""");

        public Record Record { get; private set; } = null!;

        public async Task InitializeAsync()
        {
            Assert.Null(await App.StartAsync());
            await App.SendAsync("input", "1", "hello", "wörld \"quoted\"");
            await App.WaitForRecordsAsync(r => r.Count >= 1, "one invocation");
            Record = App.Records()[0];
        }

        public async Task DisposeAsync() => await App.DisposeAsync();
    }

    [Fact]
    public void Invoke_AnyFunction_PostsToItsFolderName()
    {
        Assert.Equal("POST", _record.Raw.GetProperty("method").GetString());
        Assert.Equal("/Fn", _record.Url);
    }

    [Fact]
    public void Invoke_AnyFunction_SendsInvocationIdHostVersionAndUserAgent()
    {
        Assert.True(Guid.TryParse(_record.Header("X-Azure-Functions-InvocationId"), out _));
        Assert.Equal("4.1044.100.0", _record.Header("X-Azure-Functions-HostVersion"));
        Assert.Equal("Azure-Functions-Host/4.1044.100.0", _record.Header("User-Agent"));
    }

    [Fact]
    public void Body_ChunkedWithoutContentLength_JsonUtf8()
    {
        Assert.Equal("chunked", _record.Header("Transfer-Encoding"));
        Assert.False(_record.HasHeader("Content-Length"));
        Assert.Equal("application/json; charset=utf-8", _record.Header("Content-Type"));
    }

    [Fact]
    public void Data_BinaryMany_IsJsonStringOfBase64Array()
    {
        var data = _record.Body.GetProperty("Data");
        Assert.Equal(["events"], data.EnumerateObject().Select(p => p.Name));
        Assert.Equal(JsonValueKind.String, data.GetProperty("events").ValueKind);
        Assert.Equal("[\"aGVsbG8=\",\"" + Convert.ToBase64String(Encoding.UTF8.GetBytes("wörld \"quoted\"")) + "\"]", data.GetProperty("events").GetString());
    }

    [Fact]
    public void Metadata_Arrays_JsonStringsHoldingJsonText()
    {
        foreach (var name in new[] { "PartitionKeyArray", "OffsetArray", "OffsetStringArray", "SequenceNumberArray", "EnqueuedTimeUtcArray", "PropertiesArray", "SystemPropertiesArray" })
        {
            Assert.Equal(JsonValueKind.Array, _record.MetadataText(name).ValueKind);
            Assert.Equal(2, _record.MetadataText(name).GetArrayLength());
        }

        Assert.Equal([0L, 1L], _record.SequenceNumbers);
        Assert.Equal(JsonValueKind.Null, _record.MetadataText("PartitionKeyArray")[0].ValueKind);
        Assert.Equal(JsonValueKind.String, _record.MetadataText("OffsetArray")[0].ValueKind);
        Assert.Equal(_record.MetadataText("OffsetArray").GetRawText(), _record.MetadataText("OffsetStringArray").GetRawText());
    }

    [Fact]
    public void Metadata_EnqueuedTimeUtcArray_IsoWithoutZoneSuffix()
    {
        var text = _record.MetadataText("EnqueuedTimeUtcArray")[0].GetString()!;
        Assert.Matches(@"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?$", text);
        var parsed = DateTime.Parse(text, CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal | DateTimeStyles.AdjustToUniversal);
        Assert.InRange(DateTime.UtcNow - parsed, TimeSpan.FromSeconds(-5), TimeSpan.FromMinutes(2));
    }

    [Fact]
    public void Metadata_PropertiesArray_CarriesApplicationProperties()
    {
        var properties = _record.MetadataText("PropertiesArray")[0];
        Assert.Equal("test", properties.GetProperty("kind").GetString());
        Assert.Equal(7.0, properties.GetProperty("n").GetDouble());
    }

    [Fact]
    public void Metadata_SystemPropertiesArray_AmqpAnnotationsThenBindingKeys()
    {
        var system = _record.MetadataText("SystemPropertiesArray")[1];
        Assert.Equal(
            ["x-opt-sequence-number", "x-opt-offset", "x-opt-enqueued-time", "SequenceNumber", "Offset", "OffsetString", "PartitionKey", "EnqueuedTimeUtc"],
            system.EnumerateObject().Select(p => p.Name));
        Assert.Equal(1, system.GetProperty("x-opt-sequence-number").GetInt64());
        Assert.Equal(JsonValueKind.String, system.GetProperty("x-opt-offset").ValueKind);
        Assert.EndsWith("Z", system.GetProperty("x-opt-enqueued-time").GetString(), StringComparison.Ordinal);
        Assert.Equal(JsonValueKind.Number, system.GetProperty("Offset").ValueKind);
        Assert.Equal(_record.MetadataText("EnqueuedTimeUtcArray")[1].GetString(), system.GetProperty("EnqueuedTimeUtc").GetString());
    }

    [Fact]
    public void Metadata_PartitionContexts_AreObjects()
    {
        foreach (var name in new[] { "TriggerPartitionContext", "PartitionContext" })
        {
            var context = _record.Metadata.GetProperty(name);
            Assert.Equal(JsonValueKind.Object, context.ValueKind);
            Assert.True(context.GetProperty("IsCheckpointingAfterInvocation").GetBoolean());
            Assert.Equal("127.0.0.1", context.GetProperty("FullyQualifiedNamespace").GetString());
            Assert.Equal("input", context.GetProperty("EventHubName").GetString());
            Assert.Equal("fn", context.GetProperty("ConsumerGroup").GetString());
            Assert.Equal("1", context.GetProperty("PartitionId").GetString());
        }
    }

    [Fact]
    public void Metadata_Sys_MethodNameUtcNowRandGuid()
    {
        var sys = _record.Metadata.GetProperty("sys");
        Assert.Equal("Fn", sys.GetProperty("MethodName").GetString());
        Assert.EndsWith("Z", sys.GetProperty("UtcNow").GetString(), StringComparison.Ordinal);
        Assert.True(Guid.TryParse(sys.GetProperty("RandGuid").GetString(), out _));
    }

    [Fact]
    public void Metadata_RetryContext_PresentFromFirstAttemptWhenPolicyExists()
    {
        var retry = _record.Metadata.GetProperty("RetryContext");
        Assert.Equal(0, retry.GetProperty("RetryCount").GetInt32());
        Assert.Equal(1, retry.GetProperty("MaxRetryCount").GetInt32());
        Assert.Equal(JsonValueKind.Null, retry.GetProperty("Exception").ValueKind);
    }

    [Fact]
    public void Metadata_TriggerValue_Omitted()
    {
        Assert.DoesNotContain(_record.Metadata.EnumerateObject(), p => p.Name.EndsWith("trigger", StringComparison.OrdinalIgnoreCase) || p.Name == "events");
    }

    [Fact]
    public void Start_Handler_GetsPortWorkerIdAppRootAndValues()
    {
        var env = _record.Raw.GetProperty("env");
        Assert.Equal(env.GetProperty("port").GetString(), env.GetProperty("httpWorkerPort").GetString());
        Assert.True(Guid.TryParse(env.GetProperty("workerId").GetString(), out _));
        Assert.Equal(_app.Root, env.GetProperty("appRoot").GetString());
        Assert.Equal("from-local-settings", env.GetProperty("fromValues").GetString());
        Assert.Equal("custom", env.GetProperty("runtime").GetString());
    }
}
