using Azure.Messaging.EventHubs.Producer;
using Microsoft.Azure.Amqp;
using Microsoft.Azure.Amqp.Framing;

namespace SensorPipeline.EventHubs.Tests.Amqp;

/// <summary>What an attacker sends over raw AMQP (Microsoft.Azure.Amqp as a bare client, no SDK): values nested past the
/// decoder's stack, requests larger than a request node takes. devhost refuses each with a clear condition and keeps
/// serving. Each test uses its own partition, so they share one devhost.</summary>
public sealed class AmqpHostileClientTests(DevHostFixture fixture) : IClassFixture<DevHostFixture>
{
    /// <summary>Far past what Microsoft.Azure.Amqp decodes on a thread-pool stack (50,000 levels decode, 70,000 overflow).</summary>
    private const int PastTheStack = 180_000;

    private Uri DevHost => fixture.DevHost.BaseAddress;

    [Fact]
    public async Task CbsRequest_NestedPastTheStack_DetachedBySizeAndDevhostKeepsServing()
    {
        await using var raw = await RawAmqp.ConnectAsync(DevHost);
        var cbs = await raw.OpenSenderAsync("$cbs");
        _ = RawAmqp.SendAsync(cbs, RawAmqp.RawMessage(RawAmqp.NestedValueSection(PastTheStack)));

        var error = await RawAmqp.ClosedWithAsync(cbs);
        Assert.Equal(AmqpErrorCode.MessageSizeExceeded, error?.Condition);
        await AssertServingAsync();
    }

    [Fact]
    public async Task CbsRequest_NestedPastTheLimitWithinItsSize_RejectedWithDecodeError()
    {
        await using var raw = await RawAmqp.ConnectAsync(DevHost);
        var cbs = await raw.OpenSenderAsync("$cbs");
        var outcome = await RawAmqp.SendAsync(cbs, RawAmqp.RawMessage(RawAmqp.NestedValueSection(5_000)));

        var rejected = Assert.IsType<Rejected>(outcome);
        Assert.Equal(AmqpErrorCode.DecodeError, rejected.Error.Condition);
        Assert.Contains("MaxNestingDepth", rejected.Error.Description, StringComparison.Ordinal);
        Assert.Equal(AmqpObjectState.Opened, cbs.State);
    }

    [Fact]
    public async Task CbsRequest_OverTheRequestSizeLimit_DetachedWithMessageSizeExceeded()
    {
        await using var raw = await RawAmqp.ConnectAsync(DevHost);
        var cbs = await raw.OpenSenderAsync("$cbs");
        Assert.Equal(16UL * 1024, cbs.Settings.MaxMessageSize); // announced at attach

        var body = new byte[20 * 1024];
        _ = RawAmqp.SendAsync(cbs, AmqpMessage.Create(new Data { Value = new ArraySegment<byte>(body) }));
        var error = await RawAmqp.ClosedWithAsync(cbs);
        Assert.Equal(AmqpErrorCode.MessageSizeExceeded, error?.Condition);
        await AssertServingAsync();
    }

    [Fact]
    public async Task EventSender_NestedPastTheStack_RejectedWithDecodeErrorAndDevhostKeepsServing()
    {
        await using var raw = await RawAmqp.ConnectAsync(DevHost);
        await raw.PutTokenAsync($"amqp://127.0.0.1:{DevHost.Port}/seismic");
        var sender = await raw.OpenSenderAsync("seismic/Partitions/3");
        var outcome = await RawAmqp.SendAsync(sender, RawAmqp.RawMessage(RawAmqp.NestedValueSection(PastTheStack)));

        var rejected = Assert.IsType<Rejected>(outcome);
        Assert.Equal(AmqpErrorCode.DecodeError, rejected.Error.Condition);
        await AssertServingAsync();
    }

    [Fact]
    public async Task EventSender_DecimalPropertyPastDecimal_RejectedWithDecodeError()
    {
        await using var raw = await RawAmqp.ConnectAsync(DevHost);
        await raw.PutTokenAsync($"amqp://127.0.0.1:{DevHost.Port}/seismic");
        var sender = await raw.OpenSenderAsync("seismic/Partitions/2");
        // application-properties { "d": decimal128 with the largest exponent and coefficient }, then an empty data body
        byte[] sections = [0x00, 0x53, 0x74, 0xC1, 0x15, 0x02, 0xA1, 0x01, (byte)'d', 0x94, .. Enumerable.Repeat((byte)0x5F, 1), .. Enumerable.Repeat((byte)0xFF, 15), 0x00, 0x53, 0x75, 0xA0, 0x00];
        var outcome = await RawAmqp.SendAsync(sender, RawAmqp.RawMessage(sections));

        var rejected = Assert.IsType<Rejected>(outcome);
        Assert.Equal(AmqpErrorCode.DecodeError, rejected.Error.Condition);
    }

    /// <summary>Properties sections with a field of a type AMQP does not allow there, then an empty data body: a
    /// symbol message-id (the decoder throws AmqpException) and a symbol reply-to (it throws NotSupportedException,
    /// which no catch took, so the transfer was never settled: found by fuzzing).</summary>
    public static TheoryData<string, byte[]> UnsupportedPropertyTypes() => new()
    {
        { "message-id", [0x00, 0x53, 0x73, 0xC0, 0x05, 0x01, 0xA3, 0x02, (byte)'i', (byte)'d', 0x00, 0x53, 0x75, 0xA0, 0x00] },
        { "reply-to", [0x00, 0x53, 0x73, 0xC0, 0x09, 0x05, 0x40, 0x40, 0x40, 0x40, 0xA3, 0x02, (byte)'i', (byte)'d', 0x00, 0x53, 0x75, 0xA0, 0x00] },
    };

    [Theory]
    [MemberData(nameof(UnsupportedPropertyTypes))]
    public async Task EventSender_PropertyOfAnUnsupportedType_RejectedWithArgumentError(string field, byte[] sections)
    {
        await using var raw = await RawAmqp.ConnectAsync(DevHost);
        await raw.PutTokenAsync($"amqp://127.0.0.1:{DevHost.Port}/seismic");
        var sender = await raw.OpenSenderAsync("seismic/Partitions/2");
        var outcome = await RawAmqp.SendAsync(sender, RawAmqp.RawMessage(sections));

        var rejected = Assert.IsType<Rejected>(outcome);
        Assert.True(rejected.Error.Condition.Value == "com.microsoft:argument-error", $"{field}: {rejected.Error.Condition}");
        Assert.Equal(AmqpObjectState.Opened, sender.State);
    }

    [Theory]
    [MemberData(nameof(UnsupportedPropertyTypes))]
    public async Task CbsRequest_PropertyOfAnUnsupportedType_RejectedWithDecodeErrorAndLinkStaysOpen(string field, byte[] sections)
    {
        await using var raw = await RawAmqp.ConnectAsync(DevHost);
        var cbs = await raw.OpenSenderAsync("$cbs");
        var outcome = await RawAmqp.SendAsync(cbs, RawAmqp.RawMessage(sections));

        var rejected = Assert.IsType<Rejected>(outcome);
        Assert.True(Equals(rejected.Error.Condition, AmqpErrorCode.DecodeError), $"{field}: {rejected.Error.Condition}");
        Assert.Equal(AmqpObjectState.Opened, cbs.State);
        Assert.Equal(AmqpObjectState.Opened, raw.Connection.State);
    }

    [Fact]
    public async Task Receiver_SequenceNumberFilterAtLongMax_RefusedAsPastTheEnd()
    {
        await using var raw = await RawAmqp.ConnectAsync(DevHost);
        await raw.PutTokenAsync($"amqp://127.0.0.1:{DevHost.Port}/seismic");
        var refused = await Assert.ThrowsAnyAsync<AmqpException>(() =>
            raw.OpenReceiverAsync("seismic/ConsumerGroups/$Default/Partitions/1", 10, Filter($"amqp.annotation.x-opt-sequence-number > '{long.MaxValue}'")));
        Assert.Equal("com.microsoft:argument-out-of-range", refused.Error.Condition.Value);
    }

    [Theory]
    [InlineData(long.MaxValue)]
    [InlineData(long.MinValue)]
    public async Task Receiver_EnqueuedTimeFilterPastAnInstant_Attaches(long milliseconds)
    {
        await using var raw = await RawAmqp.ConnectAsync(DevHost);
        await raw.PutTokenAsync($"amqp://127.0.0.1:{DevHost.Port}/seismic");
        var receiver = await raw.OpenReceiverAsync("seismic/ConsumerGroups/$Default/Partitions/1", 10, Filter($"amqp.annotation.x-opt-enqueued-time > '{milliseconds}'"));
        Assert.Equal(AmqpObjectState.Opened, receiver.State); // was amqp:internal-error
    }

    private static Action<AmqpLinkSettings> Filter(string expression) => settings =>
    {
        var selector = new Microsoft.Azure.Amqp.Encoding.AmqpSymbol("apache.org:selector-filter:string");
        var filters = new FilterSet();
        filters.Add(selector, new Microsoft.Azure.Amqp.Encoding.DescribedType(selector, expression));
        ((Source)settings.Source).FilterSet = filters;
    };

    [Theory]
    [InlineData("Origin", "https://attacker.example")]
    [InlineData("Host", "rebound.attacker.example")]
    public async Task WebSocketUpgrade_FromAnotherSite_Forbidden(string header, string value)
    {
        using var http = new HttpClient();
        using var request = new HttpRequestMessage(HttpMethod.Get, new Uri(DevHost, "/$servicebus/websocket"));
        request.Headers.Add("Connection", "Upgrade");
        request.Headers.Add("Upgrade", "websocket");
        request.Headers.Add("Sec-WebSocket-Version", "13");
        request.Headers.Add("Sec-WebSocket-Key", Convert.ToBase64String(Guid.NewGuid().ToByteArray()));
        request.Headers.Add("Sec-WebSocket-Protocol", "amqp");
        if (header == "Host")
        {
            request.Headers.Host = $"{value}:{DevHost.Port}";
        }
        else
        {
            request.Headers.Add(header, value);
        }

        using var response = await http.SendAsync(request, HttpCompletionOption.ResponseHeadersRead);
        Assert.Equal(System.Net.HttpStatusCode.Forbidden, response.StatusCode);
        Assert.Contains(header == "Host" ? "loopback name" : "not a loopback page", await response.Content.ReadAsStringAsync(), StringComparison.Ordinal);
    }

    private async Task AssertServingAsync()
    {
        await using var producer = new EventHubProducerClient(AmqpPeer.ConnectionString(DevHost), "ingestion",
            new EventHubProducerClientOptions { RetryOptions = AmqpPeer.NoRetries });
        Assert.Equal(4, (await producer.GetPartitionIdsAsync()).Length);
    }
}
