using System.Text;
using Azure.Messaging.EventHubs;
using Azure.Messaging.EventHubs.Consumer;
using Azure.Messaging.EventHubs.Primitives;
using Azure.Messaging.EventHubs.Producer;

namespace SensorPipeline.EventHubs.Tests.Amqp;

/// <summary>The official .NET client (5.12.2) against devhost's AMQP endpoint on the devhost port. Each test uses its
/// own partition of the repository's hubs, so the tests of this class share one devhost.</summary>
public sealed class AmqpSdkTests(DevHostFixture fixture) : IClassFixture<DevHostFixture>
{
    private Uri DevHost => fixture.DevHost.BaseAddress;

    [Fact]
    public async Task Properties_ReadOverManagement_AreTypedAsTheClientCastsThem()
    {
        await using var producer = new EventHubProducerClient(AmqpPeer.ConnectionString(DevHost), "ingestion");
        var hub = await producer.GetEventHubPropertiesAsync();
        Assert.Equal("ingestion", hub.Name);
        Assert.Equal(["0", "1", "2", "3"], hub.PartitionIds);

        using var batch = await producer.CreateBatchAsync(new CreateBatchOptions { PartitionId = "3" });
        Assert.Equal(1024 * 1024, batch.MaximumSizeInBytes);
        Assert.True(batch.TryAdd(new EventData("p")));
        Assert.False(batch.TryAdd(new EventData(new byte[1024 * 1024])));
        await producer.SendAsync(batch);
        var partition = await producer.GetPartitionPropertiesAsync("3");
        Assert.False(partition.IsEmpty);
        Assert.True(partition.LastEnqueuedSequenceNumber >= 0);
        Assert.True(partition.LastEnqueuedTime > DateTimeOffset.UtcNow.AddMinutes(-5));
    }

    [Fact]
    public async Task BatchFilledToTheLimit_IsAccepted_AndTooLargeAnEventIsRefusedByTheClient()
    {
        await using var producer = new EventHubProducerClient(AmqpPeer.ConnectionString(DevHost), "seismic");
        using var batch = await producer.CreateBatchAsync(new CreateBatchOptions { PartitionId = "2" });
        var body = new byte[1000];
        var count = 0;
        while (batch.TryAdd(new EventData(body) { Properties = { ["n"] = count, ["sensor"] = "s-1" } }))
        {
            count++;
        }

        Assert.True(batch.SizeInBytes > 1000 * 1000, $"the batch holds {batch.SizeInBytes} bytes");
        var before = await producer.GetPartitionPropertiesAsync("2");
        await producer.SendAsync(batch);
        var after = await producer.GetPartitionPropertiesAsync("2");
        Assert.Equal(before.LastEnqueuedSequenceNumber + count, after.LastEnqueuedSequenceNumber);

        var tooLarge = await Assert.ThrowsAsync<EventHubsException>(() => producer.SendAsync([new EventData(new byte[(1024 * 1024) + 1])]));
        Assert.Equal(EventHubsException.FailureReason.MessageSizeExceeded, tooLarge.Reason);
    }

    [Fact]
    public async Task SendBatchToPartition_EveryFieldRoundTrips_ThroughTheLog()
    {
        await using var producer = new EventHubProducerClient(AmqpPeer.ConnectionString(DevHost), "weather");
        var sent = new EventData(Encoding.UTF8.GetBytes("{\"t\":21.5}"))
        {
            MessageId = "m-1",
            CorrelationId = "c-1",
            ContentType = "application/json",
        };
        sent.GetRawAmqpMessage().Properties.Subject = "reading";
        var now = new DateTimeOffset(2026, 11, 26, 12, 0, 0, TimeSpan.FromHours(1));
        foreach (var (name, value) in Properties(now))
        {
            sent.Properties[name] = value;
        }

        var valueBody = new EventData(new Azure.Core.Amqp.AmqpAnnotatedMessage(Azure.Core.Amqp.AmqpMessageBody.FromValue("a value body")));
        await producer.SendAsync([sent, valueBody], new SendEventOptions { PartitionId = "0" });

        var read = await AmqpPeer.ReadAsync(DevHost, "weather", "0", EventPosition.Earliest, 2);
        var got = read[0];
        Assert.Equal("{\"t\":21.5}", got.EventBody.ToString());
        Assert.Equal("m-1", got.MessageId);
        Assert.Equal("c-1", got.CorrelationId);
        Assert.Equal("application/json", got.ContentType);
        Assert.Equal("reading", got.GetRawAmqpMessage().Properties.Subject);
        foreach (var (name, expected) in Properties(now))
        {
            Assert.Equal(expected, got.Properties[name]);
        }

        Assert.Equal(0, got.SequenceNumber);
        Assert.Equal(1, read[1].SequenceNumber);
        Assert.True(read[1].GetRawAmqpMessage().Body.TryGetValue(out var v));
        Assert.Equal("a value body", v);
        Assert.NotEqual(got.OffsetString, read[1].OffsetString);
    }

    [Fact]
    public async Task SendWithPartitionKey_LandsWhereRestPutsTheSameKey_AndCarriesTheKey()
    {
        // REST first: the partition the emulator's hash gives this key.
        using var rest = await fixture.DevHost.Client.SendAsync(Http.Post("/seismic/publishers/device-42/messages", Http.Raw("rest"u8.ToArray())));
        rest.EnsureSuccessStatusCode();
        var partition = Http.Header(rest, "X-Partition-Id");

        await using var producer = new EventHubProducerClient(AmqpPeer.ConnectionString(DevHost), "seismic");
        var before = await producer.GetPartitionPropertiesAsync(partition);
        await producer.SendAsync([new EventData("amqp-1"), new EventData("amqp-2")], new SendEventOptions { PartitionKey = "device-42" });
        var after = await producer.GetPartitionPropertiesAsync(partition);
        Assert.Equal(before.LastEnqueuedSequenceNumber + 2, after.LastEnqueuedSequenceNumber);

        var read = await AmqpPeer.ReadAsync(DevHost, "seismic", partition, EventPosition.FromSequenceNumber(before.LastEnqueuedSequenceNumber), 3);
        Assert.Equal(["rest", "amqp-1", "amqp-2"], read.Select(e => e.EventBody.ToString()));
        Assert.All(read, e => Assert.Equal("device-42", e.PartitionKey));
    }

    [Fact]
    public async Task Receive_EveryPositionForm_StartsThere()
    {
        await using var producer = new EventHubProducerClient(AmqpPeer.ConnectionString(DevHost), "weather");
        await producer.SendAsync(Enumerable.Range(0, 5).Select(i => new EventData($"e{i}")), new SendEventOptions { PartitionId = "1" });
        var all = await AmqpPeer.ReadAsync(DevHost, "weather", "1", EventPosition.Earliest, 5);
        Assert.Equal(["e0", "e1", "e2", "e3", "e4"], all.Select(e => e.EventBody.ToString()));

        async Task<string> FirstFrom(EventPosition position) => (await AmqpPeer.ReadAsync(DevHost, "weather", "1", position, 1))[0].EventBody.ToString();
        Assert.Equal("e2", await FirstFrom(EventPosition.FromSequenceNumber(2, isInclusive: true)));
        Assert.Equal("e3", await FirstFrom(EventPosition.FromSequenceNumber(2, isInclusive: false)));
        Assert.Equal("e2", await FirstFrom(EventPosition.FromOffset(all[2].OffsetString, isInclusive: true)));
        Assert.Equal("e3", await FirstFrom(EventPosition.FromOffset(all[2].OffsetString, isInclusive: false)));
        Assert.Equal("e0", await FirstFrom(EventPosition.FromEnqueuedTime(all[0].EnqueuedTime.AddSeconds(-1))));

        // Latest: only what is sent after the receiver attached.
        await using var receiver = new PartitionReceiver("$Default", "1", EventPosition.Latest, AmqpPeer.ConnectionString(DevHost), "weather");
        var first = await receiver.ReceiveBatchAsync(1, TimeSpan.FromSeconds(2));
        Assert.Empty(first);
        await producer.SendAsync([new EventData("after-latest")], new SendEventOptions { PartitionId = "1" });
        var latest = await receiver.ReceiveBatchAsync(1, AmqpPeer.Timeout);
        Assert.Equal("after-latest", Assert.Single(latest).EventBody.ToString());
    }

    [Fact]
    public async Task ConsumerClient_ReadsWhatRestSent_AndRestPeeksWhatAmqpSent()
    {
        using var rest = await fixture.DevHost.Client.SendAsync(Http.Post("/ingestion/partitions/2/messages", Http.Raw("via-rest"u8.ToArray())));
        rest.EnsureSuccessStatusCode();
        await using var producer = new EventHubProducerClient(AmqpPeer.ConnectionString(DevHost), "ingestion");
        await producer.SendAsync([new EventData("via-amqp") { Properties = { ["sensor"] = "s1" } }], new SendEventOptions { PartitionId = "2" });

        await using var consumer = new EventHubConsumerClient("splitter", AmqpPeer.ConnectionString(DevHost), "ingestion");
        using var timeout = new CancellationTokenSource(AmqpPeer.Timeout);
        var bodies = new List<string>();
        await foreach (var e in consumer.ReadEventsFromPartitionAsync("2", EventPosition.Earliest, new ReadEventOptions { TrackLastEnqueuedEventProperties = true }, timeout.Token))
        {
            bodies.Add(e.Data.EventBody.ToString());
            if (bodies.Count == 2)
            {
                Assert.Equal(e.Data.SequenceNumber, e.Partition.ReadLastEnqueuedEventProperties().SequenceNumber);
                break;
            }
        }

        Assert.Equal(["via-rest", "via-amqp"], bodies);
        var peeked = await Http.AllEventsAsync(fixture.DevHost.Client, "ingestion", "2");
        Assert.Contains(peeked, e => e.ToString().Contains("s1", StringComparison.Ordinal));
    }

    [Fact]
    public async Task BufferedProducer_ManyEvents_SendsEverythingItWasGiven()
    {
        var failed = 0;
        await using (var buffered = new EventHubBufferedProducerClient(AmqpPeer.ConnectionString(DevHost), "seismic"))
        {
            buffered.SendEventBatchFailedAsync += _ => { Interlocked.Increment(ref failed); return Task.CompletedTask; };
            buffered.SendEventBatchSucceededAsync += _ => Task.CompletedTask;
            for (var i = 0; i < 40; i++)
            {
                await buffered.EnqueueEventAsync(new EventData($"b{i}"), new EnqueueEventOptions { PartitionId = "3" });
            }

            await buffered.FlushAsync();
        }

        Assert.Equal(0, failed);
        var read = await AmqpPeer.ReadAsync(DevHost, "seismic", "3", EventPosition.Earliest, 40);
        Assert.Equal(Enumerable.Range(0, 40).Select(i => $"b{i}"), read.Select(e => e.EventBody.ToString()));
    }

    /// <summary>Rule A11: the buffered producer with <c>EnableIdempotentRetries</c> never hands devhost's refusal to
    /// <c>SendEventBatchFailedAsync</c>. It opens the producer link to create a batch before it takes any event into
    /// it; a batch it could not create is only logged (the SDK's event source, <c>BufferedProducerEventBatchPublishError</c>
    /// with devhost's text) and tried again at once, whatever its retry options, and the event stays buffered. So the
    /// refusal reaches an application through the SDK's log alone, and nothing is stored.</summary>
    [Fact]
    public async Task BufferedProducer_IdempotentRetries_RefusalOnlyInTheSdksLogAndNothingStored()
    {
        var identifier = $"idempotent-{Guid.NewGuid():N}";
        var refusals = new System.Collections.Concurrent.ConcurrentQueue<string>();
        using var sdkLog = new Azure.Core.Diagnostics.AzureEventSourceListener((e, message) =>
        {
            if (e.EventName == "BufferedProducerEventBatchPublishError" && message.Contains(identifier, StringComparison.Ordinal))
            {
                refusals.Enqueue(message);
            }
        }, System.Diagnostics.Tracing.EventLevel.Error);
        await using var producer = new EventHubProducerClient(AmqpPeer.ConnectionString(DevHost), "weather");
        var before = await producer.GetPartitionPropertiesAsync("2");
        var failed = 0;
        var buffered = new EventHubBufferedProducerClient(AmqpPeer.ConnectionString(DevHost), "weather",
            new EventHubBufferedProducerClientOptions { EnableIdempotentRetries = true, Identifier = identifier, RetryOptions = AmqpPeer.NoRetries });
        buffered.SendEventBatchFailedAsync += _ => { Interlocked.Increment(ref failed); return Task.CompletedTask; };
        buffered.SendEventBatchSucceededAsync += _ => Task.CompletedTask;

        await buffered.EnqueueEventAsync(new EventData("idempotent"), new EnqueueEventOptions { PartitionId = "2" });
        await Eventually.ValueAsync(_ => Task.FromResult(refusals.Count), n => n >= 3, "the SDK's third logged refusal of the batch");

        Assert.Contains("devhost does not serve idempotent publishing", refusals.First(), StringComparison.Ordinal);
        Assert.Equal(0, Volatile.Read(ref failed)); // three refusals, and the handler never called
        Assert.Equal(1, buffered.TotalBufferedEventCount); // the event stays buffered
        await buffered.CloseAsync(flush: false).WaitAsync(AmqpPeer.Timeout);
        Assert.Equal(before.LastEnqueuedSequenceNumber, (await producer.GetPartitionPropertiesAsync("2")).LastEnqueuedSequenceNumber);
    }

    [Fact]
    public async Task HigherOwnerLevel_DisconnectsTheReader_WithConsumerDisconnected()
    {
        await using var a = new PartitionReceiver("splitter", "3", EventPosition.Earliest, AmqpPeer.ConnectionString(DevHost), "ingestion",
            new PartitionReceiverOptions { OwnerLevel = 1, RetryOptions = AmqpPeer.NoRetries });
        await a.ReceiveBatchAsync(1, TimeSpan.FromMilliseconds(500));
        await using var b = new PartitionReceiver("splitter", "3", EventPosition.Earliest, AmqpPeer.ConnectionString(DevHost), "ingestion",
            new PartitionReceiverOptions { OwnerLevel = 2, RetryOptions = AmqpPeer.NoRetries });
        await b.ReceiveBatchAsync(1, TimeSpan.FromMilliseconds(500));
        var stolen = await Assert.ThrowsAsync<EventHubsException>(() => a.ReceiveBatchAsync(1, TimeSpan.FromSeconds(5)));
        Assert.Equal(EventHubsException.FailureReason.ConsumerDisconnected, stolen.Reason);
    }

    [Fact]
    public async Task Send_WrongKey_Unauthorized() =>
        Assert.IsType<UnauthorizedAccessException>(await SendFailsWith(AmqpPeer.ConnectionString(DevHost, key: "wrong"), "ingestion"));

    [Fact]
    public async Task Send_ListenOnlyRule_UnauthorizedNamingListen()
    {
        var listenOnly = await SendFailsWith(AmqpPeer.ConnectionString(DevHost, "ListenOnly", "LISTEN_ONLY_KEY_VALUE"), "ingestion");
        Assert.IsType<UnauthorizedAccessException>(listenOnly);
        Assert.Contains("Listen", listenOnly.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Send_UnknownHub_ResourceNotFound()
    {
        var missing = Assert.IsType<EventHubsException>(await SendFailsWith(AmqpPeer.ConnectionString(DevHost), "no-such-hub"));
        Assert.Equal(EventHubsException.FailureReason.ResourceNotFound, missing.Reason);
    }

    [Fact]
    public async Task Receive_UnknownConsumerGroup_ResourceNotFound()
    {
        var missingGroup = await Assert.ThrowsAsync<EventHubsException>(async () =>
        {
            await using var receiver = new PartitionReceiver("no-such-group", "0", EventPosition.Earliest, AmqpPeer.ConnectionString(DevHost), "ingestion",
                new PartitionReceiverOptions { RetryOptions = AmqpPeer.NoRetries });
            await receiver.ReceiveBatchAsync(1, TimeSpan.FromSeconds(1));
        });
        Assert.Equal(EventHubsException.FailureReason.ResourceNotFound, missingGroup.Reason);
    }

    [Fact]
    public async Task Receive_ListenOnlyRule_Allowed()
    {
        await using var receiver = new PartitionReceiver("$Default", "0", EventPosition.Earliest,
            AmqpPeer.ConnectionString(DevHost, "ListenOnly", "LISTEN_ONLY_KEY_VALUE"), "ingestion", new PartitionReceiverOptions { RetryOptions = AmqpPeer.NoRetries });
        await receiver.ReceiveBatchAsync(1, TimeSpan.FromMilliseconds(500)); // throws if the token is refused
    }

    [Fact]
    public async Task WebSockets_Connection_ServesTheSameNamespace()
    {
        await using var producer = new EventHubProducerClient(AmqpPeer.ConnectionString(DevHost), "ingestion",
            new EventHubProducerClientOptions { ConnectionOptions = new EventHubConnectionOptions { TransportType = EventHubsTransportType.AmqpWebSockets } });
        var hub = await producer.GetEventHubPropertiesAsync();
        Assert.Equal(4, hub.PartitionIds.Length);
    }

    // The send fails (no retries): the exception the client reports.
    private static async Task<Exception> SendFailsWith(string connectionString, string hub)
    {
        await using var producer = new EventHubProducerClient(connectionString, hub, new EventHubProducerClientOptions { RetryOptions = AmqpPeer.NoRetries });
        return await Assert.ThrowsAnyAsync<Exception>(() => producer.SendAsync([new EventData("x")]));
    }

    private static Dictionary<string, object> Properties(DateTimeOffset now) => new()
    {
        ["string"] = "text",
        ["bool"] = true,
        ["byte"] = (byte)7,
        ["sbyte"] = (sbyte)-7,
        ["short"] = (short)-300,
        ["ushort"] = (ushort)300,
        ["int"] = -70000,
        ["uint"] = 70000u,
        ["long"] = long.MinValue,
        ["ulong"] = ulong.MaxValue,
        ["float"] = 1.5f,
        ["double"] = 2.25,
        ["decimal"] = 12.345m,
        ["char"] = 'x',
        ["guid"] = Guid.Parse("6f9619ff-8b86-d011-b42d-00cf4fc964ff"),
        ["datetime"] = new DateTime(2026, 11, 26, 11, 0, 0, DateTimeKind.Utc),
        ["datetimeoffset"] = now,
        ["timespan"] = TimeSpan.FromMinutes(90),
        ["uri"] = new Uri("https://example.com/a"),
        ["bytes"] = new byte[] { 1, 2, 3 },
    };
}
