using Azure.Messaging.EventHubs;
using Microsoft.Azure.Amqp;
using SensorPipeline.EventHubs.Amqp;

namespace SensorPipeline.EventHubs.Tests.Amqp;

public sealed class AmqpEventCodecTests
{
    [Fact]
    public void DecodeThenEncode_KeepsBodyPropertiesAndSections()
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
