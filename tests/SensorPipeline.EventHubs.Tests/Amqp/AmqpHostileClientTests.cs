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

    private async Task AssertServingAsync()
    {
        await using var producer = new EventHubProducerClient(AmqpPeer.ConnectionString(DevHost), "ingestion",
            new EventHubProducerClientOptions { RetryOptions = AmqpPeer.NoRetries });
        Assert.Equal(4, (await producer.GetPartitionIdsAsync()).Length);
    }
}
