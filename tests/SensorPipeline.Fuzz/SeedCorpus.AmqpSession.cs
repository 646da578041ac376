using Microsoft.Azure.Amqp;
using Microsoft.Azure.Amqp.Encoding;
using Microsoft.Azure.Amqp.Framing;
using SensorPipeline.Clients;
using SensorPipeline.EventHubs.Amqp;
using SensorPipeline.Testing;

namespace SensorPipeline.Fuzz;

internal static partial class SeedCorpus
{
    /// <summary>Signs the seed inputs' tokens: the emulator's well-known key, as the target's namespace verifies them.</summary>
    private const string KeyName = "RootManageSharedAccessKey";
    private const string Key = "SAS_KEY_VALUE";
    private const string Audience = "sb://fuzz/seismic";

    /// <summary>Far past any campaign, so a seed input's put-token still authorizes its links when afl replays it.</summary>
    private static readonly DateTimeOffset TokenExpiry = new(2100, 1, 1, 0, 0, 0, TimeSpan.Zero);

    /// <summary>Client sessions after the Open, frame by frame as Microsoft.Azure.Amqp encodes them, each the way an SDK
    /// goes: put-token on <c>$cbs</c>, then a sender and a receiver with credit; <c>$management</c> reads; receivers
    /// with owner levels displacing each other; a batch sent to the hub.</summary>
    private static IEnumerable<(string, byte[])> AmqpSessions()
    {
        yield return ("put-token-send-receive", [.. Begin(), .. PutToken(), .. SendEvent(2, "seismic/Partitions/1", 1, batch: false),
            .. Receive(3, "seismic/ConsumerGroups/$Default/Partitions/1", 100, epoch: null), .. Detach(3), .. End()]);
        yield return ("management-read", [.. Begin(), .. Management("com.microsoft:eventhub", null),
            .. Management("com.microsoft:partition", "0"), .. End()]);
        yield return ("owner-levels", [.. Begin(), .. PutToken(), .. Receive(2, "seismic/ConsumerGroups/fuzz/Partitions/0", 10, epoch: 1),
            .. Receive(3, "seismic/ConsumerGroups/fuzz/Partitions/0", 10, epoch: 2), .. Receive(4, "seismic/ConsumerGroups/fuzz/Partitions/0", 10, epoch: null)]);
        yield return ("batch-to-hub", [.. Begin(), .. PutToken(), .. SendEvent(2, "seismic", 1, batch: true), .. Close()]);
    }

    internal static byte[] Begin() =>
        AmqpFrames.Encode(0, new Begin { NextOutgoingId = 0, IncomingWindow = 5_000, OutgoingWindow = 5_000, HandleMax = 15 });

    private static byte[] End() => [.. AmqpFrames.Encode(0, new End()), .. Close()];

    private static byte[] Close() => AmqpFrames.Encode(0, new Close());

    private static byte[] Detach(uint handle) => AmqpFrames.Encode(0, new Detach { Handle = handle, Closed = true });

    /// <summary>A request link (handle 0) and its reply link (handle 1, with credit) on <c>$cbs</c>, and a put-token
    /// for the hub signed with the well-known key.</summary>
    private static byte[] PutToken() => [.. CbsLinks(), .. PutTokenRequest()];

    /// <summary>The request link (handle 0, named <paramref name="requestLink"/>) and the reply link (handle 1, with
    /// credit) of <c>$cbs</c>.</summary>
    internal static byte[] CbsLinks(string requestLink = "link-0") => RequestLinks(CbsNode.Address, "cbs-reply", requestLink);

    /// <summary>A put-token for the hub, signed with the well-known key, on the request link of <see cref="CbsLinks"/>.</summary>
    internal static byte[] PutTokenRequest()
    {
        using var request = AmqpMessage.Create(new AmqpValue { Value = SharedAccessSignature.Create(Audience, KeyName, Key, TokenExpiry) });
        request.ApplicationProperties.Map["operation"] = "put-token";
        request.ApplicationProperties.Map["type"] = "servicebus.windows.net:sastoken";
        request.ApplicationProperties.Map["name"] = Audience;
        request.Properties.MessageId = "put-token-1";
        request.Properties.ReplyTo = "cbs-reply";
        return Transfer(0, 0, request);
    }

    /// <summary>A READ on <c>$management</c> (handles 0 and 1) with its own security token, as the SDKs send it.</summary>
    private static byte[] Management(string type, string? partition)
    {
        using var request = AmqpMessage.Create(new AmqpValue { Value = null });
        request.ApplicationProperties.Map["operation"] = "READ";
        request.ApplicationProperties.Map["type"] = type;
        request.ApplicationProperties.Map["name"] = "seismic";
        request.ApplicationProperties.Map["security_token"] = SharedAccessSignature.Create(Audience, KeyName, Key, TokenExpiry);
        if (partition is not null)
        {
            request.ApplicationProperties.Map["partition"] = partition;
        }

        request.Properties.MessageId = "read-" + type;
        request.Properties.ReplyTo = "management-reply";
        var links = partition is null ? RequestLinks(ManagementNode.Address, "management-reply") : [];
        return [.. links, .. Transfer(0, partition is null ? 0u : 1u, request)];
    }

    private static byte[] RequestLinks(string node, string replyTo, string requestLink = "link-0") =>
    [
        .. Attach(0, role: false, source: "client", target: node, requestLink),
        .. Attach(1, role: true, source: node, target: replyTo),
        .. Flow(1, 10),
    ];

    /// <summary>A sender link to <paramref name="address"/> and one transfer on it: one event, or a batch of two.</summary>
    private static byte[] SendEvent(uint handle, string address, uint deliveryId, bool batch)
    {
        using var single = Event(Builders.Batch(Weather("weather-0001", 1)), "weather-0001");
        if (!batch)
        {
            return [.. Attach(handle, role: false, source: "client", target: address), .. Transfer(handle, deliveryId, single)];
        }

        using var second = Event("second"u8.ToArray(), null);
        using var envelope = AmqpMessage.Create([new Data { Value = new ArraySegment<byte>(Payload(single)) }, new Data { Value = new ArraySegment<byte>(Payload(second)) }]);
        return [.. Attach(handle, role: false, source: "client", target: address), .. Transfer(handle, deliveryId, envelope, AmqpConstants.AmqpBatchedMessageFormat)];
    }

    /// <summary>A receiver link from the start of the partition, with an owner level when given, and credit.</summary>
    private static byte[] Receive(uint handle, string address, uint credit, long? epoch)
    {
        var source = new Source { Address = address, FilterSet = [] };
        var selector = new AmqpSymbol("apache.org:selector-filter:string");
        source.FilterSet.Add(selector, new DescribedType(selector, "amqp.annotation.x-opt-offset > '-1'"));
        var attach = new Attach { LinkName = $"receiver-{handle}", Handle = handle, Role = true, Source = source, Target = new Target { Address = "client" }, SndSettleMode = 1, RcvSettleMode = 0 };
        if (epoch is not null)
        {
            attach.Properties = new Fields { ["com.microsoft:epoch"] = epoch.Value };
        }

        return [.. AmqpFrames.Encode(0, attach), .. Flow(handle, credit)];
    }

    private static byte[] Attach(uint handle, bool role, string source, string target, string? name = null) =>
        AmqpFrames.Encode(0, new Attach
        {
            LinkName = name ?? $"link-{handle}",
            Handle = handle,
            Role = role,
            Source = new Source { Address = source },
            Target = new Target { Address = target },
            SndSettleMode = role ? (byte)1 : (byte)0,
            RcvSettleMode = 0,
            InitialDeliveryCount = role ? null : 0,
        });

    private static byte[] Flow(uint handle, uint credit) =>
        AmqpFrames.Encode(0, new Flow { NextIncomingId = 0, IncomingWindow = 5_000, NextOutgoingId = 0, OutgoingWindow = 5_000, Handle = handle, DeliveryCount = 0, LinkCredit = credit });

    private static byte[] Transfer(uint handle, uint deliveryId, AmqpMessage message, uint format = 0) =>
        AmqpFrames.Encode(0, new Transfer
        {
            Handle = handle,
            DeliveryId = deliveryId,
            DeliveryTag = new ArraySegment<byte>(BitConverter.GetBytes(deliveryId)),
            MessageFormat = format,
            Settled = false,
        }, Payload(message));
}
