using Azure.Messaging.EventHubs;
using Azure.Messaging.EventHubs.Consumer;
using Azure.Messaging.EventHubs.Primitives;
using Azure.Messaging.EventHubs.Producer;

namespace SensorPipeline.EventHubs.Tests.Amqp;

/// <summary>The official .NET client (5.12.2) where Event Hubs answers in a particular way an application sees: an
/// unknown partition, a start by enqueued time, a footer, batches filled to the limit. Each test uses its own partition
/// of the repository's hubs, so the tests of this class share one devhost.</summary>
public sealed class AmqpServiceAnswersTests(DevHostFixture fixture) : IClassFixture<DevHostFixture>
{
    private const string OutOfRangeText = "The specified partition is invalid for an EventHub partition sender or receiver. It should be between 0 and 3.";

    private Uri DevHost => fixture.DevHost.BaseAddress;

    [Fact]
    public async Task UnknownPartition_PropertiesSendAndReceive_ArgumentOutOfRange()
    {
        await using var producer = new EventHubProducerClient(AmqpPeer.ConnectionString(DevHost), "ingestion",
            new EventHubProducerClientOptions { RetryOptions = AmqpPeer.NoRetries });
        var properties = await Assert.ThrowsAsync<ArgumentOutOfRangeException>(() => producer.GetPartitionPropertiesAsync("4"));
        Assert.Contains(OutOfRangeText, properties.Message, StringComparison.Ordinal);
        var send = await Assert.ThrowsAsync<ArgumentOutOfRangeException>(() => producer.SendAsync([new EventData("x")], new SendEventOptions { PartitionId = "9" }));
        Assert.Contains(OutOfRangeText, send.Message, StringComparison.Ordinal);

        await using var receiver = new PartitionReceiver("$Default", "4", EventPosition.Earliest, AmqpPeer.ConnectionString(DevHost), "ingestion",
            new PartitionReceiverOptions { RetryOptions = AmqpPeer.NoRetries });
        var receive = await Assert.ThrowsAsync<ArgumentOutOfRangeException>(() => receiver.ReceiveBatchAsync(1, TimeSpan.FromSeconds(1)));
        Assert.Contains(OutOfRangeText, receive.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Receive_FromAnEventsEnqueuedTime_BeginsWithTheNextEvent()
    {
        await using var producer = new EventHubProducerClient(AmqpPeer.ConnectionString(DevHost), "weather");
        await producer.SendAsync([new EventData("time-a")], new SendEventOptions { PartitionId = "1" });
        var a = Assert.Single(await AmqpPeer.ReadAsync(DevHost, "weather", "1", EventPosition.Earliest, 1));
        await producer.SendAsync([new EventData("time-b")], new SendEventOptions { PartitionId = "1" });

        var first = await AmqpPeer.ReadAsync(DevHost, "weather", "1", EventPosition.FromEnqueuedTime(a.EnqueuedTime), 1);
        Assert.Equal("time-b", Assert.Single(first).EventBody.ToString());
    }

    [Fact]
    public async Task SendWithFooter_ReadBack_FooterKept()
    {
        await using var producer = new EventHubProducerClient(AmqpPeer.ConnectionString(DevHost), "weather");
        var sent = new EventData("with-footer");
        sent.GetRawAmqpMessage().Footer["checksum"] = "abc123";
        sent.GetRawAmqpMessage().Footer["parts"] = 3;
        await producer.SendAsync([sent], new SendEventOptions { PartitionId = "2" });

        var read = Assert.Single(await AmqpPeer.ReadAsync(DevHost, "weather", "2", EventPosition.Earliest, 1));
        var footer = read.GetRawAmqpMessage().Footer;
        Assert.Equal("abc123", footer["checksum"]);
        Assert.Equal(3, footer["parts"]);
    }

    [Theory]
    [InlineData(10)]
    [InlineData(1024)]
    [InlineData(10 * 1024)]
    [InlineData(100 * 1024)]
    public async Task SendBatch_FilledToTheLimit_AcceptedForEveryBodySize(int bodySize)
    {
        // The body sizes share a partition, so each counts from what was there before.
        await using var producer = new EventHubProducerClient(AmqpPeer.ConnectionString(DevHost), "seismic",
            new EventHubProducerClientOptions { RetryOptions = AmqpPeer.NoRetries });
        const string partition = "0";
        using var batch = await producer.CreateBatchAsync(new CreateBatchOptions { PartitionId = partition });
        var body = new byte[bodySize];
        while (batch.TryAdd(new EventData(body)))
        {
        }

        Assert.True(batch.SizeInBytes > batch.MaximumSizeInBytes - bodySize - 200, $"the batch holds {batch.SizeInBytes} bytes");
        var before = await producer.GetPartitionPropertiesAsync(partition);
        await producer.SendAsync(batch);
        var after = await producer.GetPartitionPropertiesAsync(partition);
        Assert.Equal(before.LastEnqueuedSequenceNumber + batch.Count, after.LastEnqueuedSequenceNumber);
    }
}
