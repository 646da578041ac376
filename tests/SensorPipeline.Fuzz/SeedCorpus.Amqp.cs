using Microsoft.Azure.Amqp;
using Microsoft.Azure.Amqp.Framing;
using SensorPipeline.EventHubs.Amqp;
using SensorPipeline.Testing;

namespace SensorPipeline.Fuzz;

internal static partial class SeedCorpus
{
    /// <summary>Messages as Microsoft.Azure.Amqp encodes them (the library the Event Hubs SDKs send with): one event
    /// with properties, annotations and a partition key (mode 0), and a batch of two encoded events (mode 1).</summary>
    private static IEnumerable<(string, byte[])> AmqpMessages()
    {
        yield return ("single-event", [0, .. Payload(Event(Builders.Batch(Weather("weather-0001", 1)), "weather-0001"))]);
        using var first = Event(Builders.Batch(Seismic("seismic-0001", 1)), "seismic-0001");
        using var second = Event("second"u8.ToArray(), null);
        using var batch = AmqpMessage.Create([new Data { Value = new ArraySegment<byte>(Payload(first)) }, new Data { Value = new ArraySegment<byte>(Payload(second)) }]);
        batch.MessageFormat = AmqpConstants.AmqpBatchedMessageFormat;
        batch.MessageAnnotations.Map[AmqpEventCodec.PartitionKeyName] = "batch-key";
        yield return ("batch-two-events", [1, .. Payload(batch)]);
    }

    private static AmqpMessage Event(byte[] body, string? partitionKey)
    {
        var message = AmqpMessage.Create(new Data { Value = new ArraySegment<byte>(body) });
        message.Properties.MessageId = "message-1";
        message.Properties.ContentType = "application/x-protobuf";
        message.ApplicationProperties.Map["source"] = "loadgen";
        message.ApplicationProperties.Map["n"] = 3;
        message.ApplicationProperties.Map["ratio"] = 0.5;
        if (partitionKey is not null)
        {
            message.MessageAnnotations.Map[AmqpEventCodec.PartitionKeyName] = partitionKey;
        }

        return message;
    }

    private static byte[] Payload(AmqpMessage message) => [.. message.GetPayload().SelectMany(s => s)];
}
