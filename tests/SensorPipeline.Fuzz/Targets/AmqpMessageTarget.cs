using Microsoft.Azure.Amqp;
using SensorPipeline.EventHubs;
using SensorPipeline.EventHubs.Amqp;
using SensorPipeline.EventHubs.Storage;

namespace SensorPipeline.Fuzz.Targets;

/// <summary>
/// A transfer's message through the Event Hubs emulator's AMQP send path: first <see cref="AmqpNesting"/> on its raw
/// bytes, as the sender link and the request nodes check them before anything is decoded (a refusal there is the
/// rejected outcome <c>amqp:decode-error</c>, and ends the input; a stack overflow past it would be a crash), then the
/// sections as Microsoft.Azure.Amqp reads them from the wire, then <see cref="AmqpEventCodec.Decode"/> (single message or a batch of encoded events, body
/// kinds, application properties, the envelope it stores), and each event back through
/// <see cref="AmqpEventCodec.Encode"/> as a receiver would get it. The input's first byte is a mode: bit 0 marks the
/// message as a batch (format 0x80013700). Refusals are what the link answers with a rejected outcome:
/// <see cref="FormatException"/> and <see cref="ArgumentException"/> (<c>com.microsoft:argument-error</c>), and
/// <see cref="OverflowException"/> (a decimal past System.Decimal: <c>amqp:decode-error</c>).
/// </summary>
internal static class AmqpMessageTarget
{
    internal static void Run(byte[] input)
    {
        if (input.Length == 0)
        {
            return;
        }

        if (AmqpNesting.CheckSections(input.AsSpan(1), new AmqpOptions().MaxNestingDepth) is not null)
        {
            return;
        }

        using var message = AmqpMessage.CreateAmqpStreamMessage(new BufferListStream([new ArraySegment<byte>(input, 1, input.Length - 1)]));
        if ((input[0] & 1) != 0)
        {
            message.MessageFormat = AmqpConstants.AmqpBatchedMessageFormat;
        }

        var sequence = 0L;
        foreach (var e in AmqpEventCodec.Decode(message))
        {
            var stored = new StoredEvent(sequence++, 0, DateTimeOffset.UnixEpoch, e.PartitionKey, e.Body, e.Properties ?? EncodedProperties.Empty, "0")
            {
                AmqpEnvelope = e.AmqpEnvelope,
            };
            using var back = AmqpEventCodec.Encode(stored);
            _ = back.GetPayload();
        }
    }
}
