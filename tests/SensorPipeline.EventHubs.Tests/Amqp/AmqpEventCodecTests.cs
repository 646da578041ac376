using Azure.Messaging.EventHubs;
using Microsoft.Azure.Amqp;
using SensorPipeline.EventHubs.Amqp;

namespace SensorPipeline.EventHubs.Tests.Amqp;

public sealed class AmqpEventCodecTests
{
    [Fact]
    public void DecodeThenEncode_AnyEvent_KeepsBodyPropertiesAndSections()
    {
        var sent = new EventData("body"u8.ToArray()) { MessageId = "m", CorrelationId = "c", ContentType = "text/plain" };
        sent.Properties["decimal"] = 1.5m;
        sent.Properties["datetimeoffset"] = DateTimeOffset.UnixEpoch;
        sent.Properties["uri"] = new Uri("https://example.com");
        using var message = ToAmqp(sent);
        var decoded = Assert.Single(AmqpEventCodec.Decode(message));
        var stored = new StoredEvent(5, 100, DateTimeOffset.UnixEpoch, "k", decoded.Body, decoded.Properties!, "0") { AmqpEnvelope = decoded.AmqpEnvelope };
        using var back = AmqpEventCodec.Encode(stored);
        var bytes = back.GetPayload();
        Assert.NotEmpty(bytes);
        Assert.Equal("m", back.Properties.MessageId.ToString());
        Assert.Equal(1.5m, back.ApplicationProperties.Map["decimal"]);
    }

    [Fact]
    public void DecodeThenEncode_NullDataSection_StaysNull()
    {
        // What the Node SDK sends for { body: null }: header, properties, then a data section holding null (rhea's encoding).
        byte[] node = [0x00, 0x53, 0x70, 0x45, 0x00, 0x53, 0x73, 0x45, 0x00, 0x53, 0x75, 0x40];
        using var message = AmqpMessage.CreateAmqpStreamMessage(new BufferListStream([new ArraySegment<byte>(node)]));
        var decoded = Assert.Single(AmqpEventCodec.Decode(message));
        var stored = new StoredEvent(0, 0, DateTimeOffset.UnixEpoch, null, decoded.Body, new Dictionary<string, object?>(), "0") { AmqpEnvelope = decoded.AmqpEnvelope };
        using var back = AmqpEventCodec.Encode(stored);
        var payload = back.GetPayload().SelectMany(s => s).ToArray();
        Assert.Equal([0x00, 0x53, 0x75, 0x40], payload[^4..]);
        using var reread = AmqpMessage.CreateAmqpStreamMessage(new BufferListStream([new ArraySegment<byte>(payload)]));
        Assert.Equal(0L, reread.MessageAnnotations.Map[AmqpEventCodec.SequenceNumberName]);
    }

    // Found by fuzzing: Microsoft.Azure.Amqp reads an empty array of a described type but writes it back without its
    // descriptor. Stored, such an event closed every receiver's link at it, again after each reconnect.
    [Fact]
    public void Decode_FooterHoldingAnEmptyDescribedArray_RefusedRatherThanStoredUnreadable() =>
        AssertRefusedAsUnreadable([0x00, 0x53, 0x75, 0xa0, 0x01, 0x78, 0x00, 0x53, 0x78, 0xc1, 0x0b, 0x02, 0xa1, 0x01, 0x6b, 0xe0, 0x05, 0x00, 0x00, 0x53, 0x05, 0xa1]);

    [Fact]
    public void Decode_ValueBodyOfAnEmptyDescribedArray_RefusedRatherThanStoredUnreadable() =>
        AssertRefusedAsUnreadable([0x00, 0x53, 0x77, 0xe0, 0x05, 0x00, 0x00, 0x53, 0x05, 0xa1]);

    private static void AssertRefusedAsUnreadable(byte[] wire)
    {
        using var message = AmqpMessage.CreateAmqpStreamMessage(new BufferListStream([new ArraySegment<byte>(wire)]));
        var refused = Assert.Throws<FormatException>(() => AmqpEventCodec.Decode(message));
        Assert.Contains("do not read back", refused.Message, StringComparison.Ordinal);
    }

    /// <summary>The client's own converter, through its internal type (the wire form it sends).</summary>
    private static AmqpMessage ToAmqp(EventData e)
    {
        var converter = typeof(EventData).Assembly.GetType("Azure.Messaging.EventHubs.Amqp.AmqpMessageConverter")!;
        var instance = Activator.CreateInstance(converter)!;
        var method = converter.GetMethods().First(m => m.Name == "CreateMessageFromEvent");
        var args = method.GetParameters().Select(p => p.ParameterType == typeof(EventData) ? e : (p.HasDefaultValue ? p.DefaultValue : null)).ToArray();
        var message = (AmqpMessage)method.Invoke(instance, args)!;
        var payload = message.GetPayload();
        return AmqpMessage.CreateAmqpStreamMessage(new BufferListStream(payload));
    }
}

public sealed class CbsNodeTests
{
    private static readonly DateTimeOffset Now = DateTimeOffset.UtcNow;

    private static CbsNode Node() => new(new EventHubs.Http.SasVerifier(Microsoft.Extensions.Options.Options.Create(new EventHubs.Http.SasOptions())), TimeProvider.System);

    [Fact]
    public void PutToken_Jwt_IsRefusedWith401AndSaysWhy()
    {
        var (status, description, condition) = Node().PutToken("put-token", "jwt", "amqp://127.0.0.1/ingestion", "eyJ.e30.", new ConnectionState());
        Assert.Equal(401, status);
        Assert.Equal("amqp:unauthorized-access", condition);
        Assert.Contains("SAS tokens only", description, StringComparison.Ordinal);
    }

    [Fact]
    public void PutToken_ListenOnlySas_AuthorizesReceiversButNotSenders()
    {
        var state = new ConnectionState();
        var token = Clients.SharedAccessSignature.Create("amqps://127.0.0.1/ingestion", "ListenOnly", "LISTEN_ONLY_KEY_VALUE", Now.AddHours(1));
        Assert.Equal(202, Node().PutToken("put-token", "servicebus.windows.net:sastoken", "amqp://127.0.0.1/ingestion", token, state).Status);
        Assert.Null(state.Authorize("ingestion/ConsumerGroups/$Default/Partitions/0", EventHubs.Http.SasRights.Listen, Now));
        Assert.Contains("Listen", state.Authorize("ingestion/Partitions/0", EventHubs.Http.SasRights.Send, Now), StringComparison.Ordinal);
        Assert.NotNull(state.Authorize("weather", EventHubs.Http.SasRights.Listen, Now));
    }
}

public sealed class RecordFormatUpgradeTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Theory]
    [InlineData(1)] // before the AMQP endpoint: no envelope
    [InlineData(2)] // the durable mark after the base positions, as 32-bit numbers
    public async Task Open_DataWrittenByAnOlderFormat_RefusedSayingWhatToDoFileUntouched(byte version)
    {
        await (await OpenAsync()).DisposeAsync();
        var segment = Directory.GetFiles(Path.Combine(_dir.Path, "hub", "0"), "*.log").Single();
        var bytes = await File.ReadAllBytesAsync(segment);
        bytes[4] = version; // the header's format version
        await File.WriteAllBytesAsync(segment, bytes);

        var refused = await Assert.ThrowsAsync<InvalidDataException>(OpenAsync);
        Assert.Contains($"of format {version}", refused.Message, StringComparison.Ordinal);
        Assert.Contains("Delete the data directory's eventhubs folder", refused.Message, StringComparison.Ordinal);
        Assert.Equal(bytes, await File.ReadAllBytesAsync(segment));
    }

    private Task<EventHubsNamespace> OpenAsync() => Task.Run(() => EventHubsNamespace.Open(TestData.Config, _dir.Path, new EventLogOptions(), TimeProvider.System));
}

public sealed class LinkAuthorizationTests
{
    [Fact]
    public void IsValid_UntilTheTokenExpires_AndAgainAfterARefresh()
    {
        var time = new SettableTime { Now = DateTimeOffset.UtcNow };
        var state = new ConnectionState();
        var verifier = new EventHubs.Http.SasVerifier(Microsoft.Extensions.Options.Options.Create(new EventHubs.Http.SasOptions()));
        var cbs = new CbsNode(verifier, time);
        string Token(TimeSpan life) => Clients.SharedAccessSignature.Create("amqps://127.0.0.1/ingestion", Sas.KeyName, Sas.Key, time.Now + life);

        Assert.Equal(202, cbs.PutToken("put-token", "servicebus.windows.net:sastoken", "amqp://127.0.0.1/ingestion", Token(TimeSpan.FromSeconds(60)), state).Status);
        var link = new LinkAuthorization(state, "ingestion/Partitions/0", EventHubs.Http.SasRights.Send, time);
        Assert.True(link.IsValid());
        time.Now += TimeSpan.FromSeconds(61);
        Assert.False(link.IsValid());

        Assert.Equal(202, cbs.PutToken("put-token", "servicebus.windows.net:sastoken", "amqp://127.0.0.1/ingestion", Token(TimeSpan.FromMinutes(10)), state).Status);
        Assert.True(link.IsValid());
    }

    private sealed class SettableTime : TimeProvider
    {
        public DateTimeOffset Now { get; set; }

        public override DateTimeOffset GetUtcNow() => Now;
    }
}
