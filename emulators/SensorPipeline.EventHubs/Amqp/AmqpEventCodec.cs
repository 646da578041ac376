using Microsoft.Azure.Amqp;
using Microsoft.Azure.Amqp.Encoding;
using Microsoft.Azure.Amqp.Framing;

namespace SensorPipeline.EventHubs.Amqp;

/// <summary>AMQP messages ↔ stored events. What is kept: the body and its kind (data, value, sequence), application
/// properties of every simple AMQP type (plus the .NET client's described DateTimeOffset, TimeSpan and Uri), the
/// properties section (message-id, correlation-id, content-type, subject, …), message annotations other than the
/// broker's own <c>x-opt-*</c>, the footer, and the partition key; a data section holding null reads back as one.
/// The header is not kept.</summary>
internal static class AmqpEventCodec
{
    public const string PartitionKeyName = "x-opt-partition-key";
    public const string SequenceNumberName = "x-opt-sequence-number";
    public const string OffsetName = "x-opt-offset";
    public const string EnqueuedTimeName = "x-opt-enqueued-time";

    // The .NET client's described types for application properties AMQP has no type for (its AmqpMessageConverter).
    private const string DateTimeOffsetDescriptor = "com.microsoft:datetime-offset";
    private const string TimeSpanDescriptor = "com.microsoft:timespan";
    private const string UriDescriptor = "com.microsoft:uri";

    private const byte HasProperties = 1;
    private const byte HasAnnotations = 2;
    private const byte HasFooter = 4;

    /// <summary>Stored in the envelope's first byte: never renumbered.</summary>
    private enum BodyKind : byte
    {
        Data = 0,
        Value = 1,
        Sequence = 2,
        /// <summary>One data section holding null (the Node SDK's <c>body: null</c>), not an empty binary.</summary>
        NullData = 3,
    }

    /// <summary>The events of one transfer: a batch (message format 0x80013700, one Data section per encoded event)
    /// or a single message. A batch's events take the envelope's partition key when they have none of their own.</summary>
    /// <exception cref="FormatException">The message cannot be stored as sent, or its sections do not decode; the text
    /// says why.</exception>
    public static List<EventToAppend> Decode(AmqpMessage message)
    {
        try
        {
            return DecodeSections(message);
        }
        catch (Exception e) when (e is AmqpException or NotSupportedException)
        {
            // Microsoft.Azure.Amqp decodes a received message's sections only when they are read, here: a malformed one
            // is the sender's error, rejected like any other (found by fuzzing). A properties field of a type AMQP does
            // not allow there (a symbol reply-to) is its NotSupportedException.
            throw new FormatException("The message's sections are not valid AMQP: " + e.Message, e);
        }
    }

    private static List<EventToAppend> DecodeSections(AmqpMessage message)
    {
        var outerKey = PartitionKeyOf(message);
        if (message.MessageFormat != AmqpConstants.AmqpBatchedMessageFormat)
        {
            return [ToEvent(message, outerKey)];
        }

        var events = new List<EventToAppend>();
        foreach (var data in message.DataBody ?? [])
        {
            using var inner = AmqpMessage.CreateAmqpStreamMessage(new BufferListStream([SegmentOf(data)]));
            events.Add(ToEvent(inner, PartitionKeyOf(inner) ?? outerKey));
        }

        return events.Count > 0 ? events : throw new FormatException("A batched message (format 0x80013700) carries no events.");
    }

    /// <summary>The message a receiver gets for a stored event, with the annotations the SDKs read.</summary>
    public static AmqpMessage Encode(StoredEvent stored)
    {
        var message = Restore(stored.Body, stored.AmqpEnvelope, out var nullData);
        var annotations = message.MessageAnnotations.Map;
        annotations[SequenceNumberName] = stored.SequenceNumber;
        annotations[OffsetName] = stored.Offset.ToString(System.Globalization.CultureInfo.InvariantCulture);
        annotations[EnqueuedTimeName] = stored.EnqueuedTime.UtcDateTime;
        if (stored.PartitionKey is { } key)
        {
            annotations[PartitionKeyName] = key;
        }

        if (stored.Properties.Count > 0)
        {
            foreach (var (name, value) in stored.Properties)
            {
                message.ApplicationProperties.Map[name] = ToAmqp(value);
            }
        }

        return nullData ? WithNullDataBody(message) : message;
    }

    /// <summary>The message with a data section holding null as its body, which Microsoft.Azure.Amqp 2.7 cannot write
    /// (it writes every data section as a binary): the sections after the annotations are encoded here around that
    /// body and sent as they are; the annotations stay settable (the receiver link adds its own).</summary>
    private static AmqpMessage WithNullDataBody(AmqpMessage message)
    {
        using (message)
        {
            var buffer = new ByteBuffer(256, true);
            if ((message.Sections & SectionFlag.Properties) != 0)
            {
                AmqpCodec.EncodeSerializable(message.Properties, buffer);
            }

            if ((message.Sections & SectionFlag.ApplicationProperties) != 0)
            {
                AmqpCodec.EncodeSerializable(message.ApplicationProperties, buffer);
            }

            AmqpCodec.EncodeObject(new DescribedType(Data.Code, null), buffer);
            if ((message.Sections & SectionFlag.Footer) != 0)
            {
                AmqpCodec.EncodeSerializable(message.Footer, buffer);
            }

            var output = AmqpMessage.CreateOutputMessage(new BufferListStream([new ArraySegment<byte>(buffer.Buffer, buffer.Offset, buffer.Length)]), true);
            foreach (var (key, value) in message.MessageAnnotations.Map)
            {
                output.MessageAnnotations.Map[key] = value;
            }

            return output;
        }
    }

    private static string? PartitionKeyOf(AmqpMessage message) =>
        (message.Sections & SectionFlag.MessageAnnotations) != 0 && message.MessageAnnotations.Map.TryGetValue(PartitionKeyName, out object? key)
            ? key?.ToString()
            : null;

    private static EventToAppend ToEvent(AmqpMessage message, string? key)
    {
        var (kind, body) = BodyOf(message);
        var envelope = EnvelopeOf(message, kind);
        if (envelope.Length > 0)
        {
            EnsureReadsBack(body, envelope);
        }

        return new EventToAppend(body, key, PropertiesOf(message)) { AmqpEnvelope = envelope };
    }

    /// <summary>Decodes what would be stored, as every receiver of the partition will: Microsoft.Azure.Amqp reads some
    /// values it cannot write back (an empty array of a described type loses its descriptor), and an event stored that
    /// way would close every receiver's link at it, again after each reconnect (found by fuzzing). Only events with a
    /// properties section, their own annotations, a footer or a non-data body have an envelope to check.</summary>
    private static void EnsureReadsBack(byte[] body, byte[] envelope)
    {
        try
        {
            Restore(body, envelope, out _).Dispose();
        }
        catch (AmqpException e)
        {
            throw new FormatException("The message cannot be stored as sent: its sections do not read back as AMQP (" + e.Message + ").", e);
        }
    }

    private static (BodyKind Kind, byte[] Body) BodyOf(AmqpMessage message)
    {
        switch (message.BodyType)
        {
            case SectionFlag.AmqpValue:
                var value = new ByteBuffer(256, true);
                AmqpCodec.EncodeObject(message.ValueBody.Value, value);
                return (BodyKind.Value, value.Buffer.AsSpan(value.Offset, value.Length).ToArray());
            case SectionFlag.AmqpSequence:
                var sequence = new ByteBuffer(256, true);
                foreach (var list in message.SequenceBody)
                {
                    AmqpCodec.EncodeList(list.List, sequence);
                }

                return (BodyKind.Sequence, sequence.Buffer.AsSpan(sequence.Offset, sequence.Length).ToArray());
            default:
                var pieces = message.DataBody?.Select(SegmentOf).ToList() ?? [];
                if (pieces.Count == 0)
                {
                    // Microsoft.Azure.Amqp 2.7 drops a data section holding null when it reads a message (the Node SDK's
                    // body: null), which then reads as a message without a body; both are kept as a null data section.
                    return (BodyKind.NullData, []);
                }

                var bytes = new byte[pieces.Sum(p => p.Count)];
                var at = 0;
                foreach (var piece in pieces)
                {
                    piece.AsSpan().CopyTo(bytes.AsSpan(at));
                    at += piece.Count;
                }

                return (BodyKind.Data, bytes);
        }
    }

    private static Dictionary<string, object?>? PropertiesOf(AmqpMessage message)
    {
        if ((message.Sections & SectionFlag.ApplicationProperties) == 0 || message.ApplicationProperties.Map.Count == 0)
        {
            return null;
        }

        var properties = new Dictionary<string, object?>(message.ApplicationProperties.Map.Count, StringComparer.Ordinal);
        foreach (var (key, value) in message.ApplicationProperties.Map)
        {
            var name = key.Key?.ToString() ?? throw new FormatException("An application property has a null name.");
            properties[name] = FromAmqp(name, value);
        }

        return properties;
    }

    private static object? FromAmqp(string name, object? value) => value switch
    {
        null or string or bool or sbyte or byte or short or ushort or int or uint or long or ulong or float or double or decimal or char or Guid => value,
        DateTime t => DateTime.SpecifyKind(t, DateTimeKind.Utc),
        ArraySegment<byte> b => b.ToArray(),
        AmqpSymbol s => new AmqpSymbolValue(s.Value),
        DescribedType { Descriptor: AmqpSymbol { Value: DateTimeOffsetDescriptor }, Value: long ticks } => new DateTimeOffset(ticks, TimeSpan.Zero),
        DescribedType { Descriptor: AmqpSymbol { Value: TimeSpanDescriptor }, Value: long ticks } => new TimeSpan(ticks),
        DescribedType { Descriptor: AmqpSymbol { Value: UriDescriptor }, Value: string uri } => new Uri(uri, UriKind.RelativeOrAbsolute),
        _ => throw new FormatException($"Application property '{name}' has AMQP type {value.GetType().Name}, which devhost does not store; use a simple AMQP type."),
    };

    private static object? ToAmqp(object? value) => value switch
    {
        AmqpSymbolValue s => new AmqpSymbol(s.Value),
        DateTimeOffset t => new DescribedType(new AmqpSymbol(DateTimeOffsetDescriptor), t.UtcTicks),
        TimeSpan t => new DescribedType(new AmqpSymbol(TimeSpanDescriptor), t.Ticks),
        Uri u => new DescribedType(new AmqpSymbol(UriDescriptor), u.OriginalString),
        byte[] b => new ArraySegment<byte>(b),
        _ => value,
    };

    /// <summary>Body kind, which sections follow, then the properties section, the sender's own message annotations and
    /// the footer, AMQP-encoded (ubyte, ubyte, described list, described map, described map).</summary>
    private static byte[] EnvelopeOf(AmqpMessage message, BodyKind kind)
    {
        var hasProperties = (message.Sections & SectionFlag.Properties) != 0;
        var annotations = (message.Sections & SectionFlag.MessageAnnotations) != 0
            ? message.MessageAnnotations.Map.Where(a => a.Key.Key?.ToString()?.StartsWith("x-opt-", StringComparison.Ordinal) != true).ToList()
            : [];
        var hasFooter = (message.Sections & SectionFlag.Footer) != 0 && message.Footer.Map.Count > 0;
        if (kind == BodyKind.Data && !hasProperties && annotations.Count == 0 && !hasFooter)
        {
            return [];
        }

        var buffer = new ByteBuffer(64, true);
        AmqpCodec.EncodeUByte((byte)kind, buffer);
        AmqpCodec.EncodeUByte((byte)((hasProperties ? HasProperties : 0) | (annotations.Count > 0 ? HasAnnotations : 0) | (hasFooter ? HasFooter : 0)), buffer);
        if (hasProperties)
        {
            AmqpCodec.EncodeSerializable(message.Properties, buffer);
        }

        if (annotations.Count > 0)
        {
            var section = new MessageAnnotations();
            foreach (var (key, value) in annotations)
            {
                section.Map[key] = value;
            }

            AmqpCodec.EncodeSerializable(section, buffer);
        }

        if (hasFooter)
        {
            AmqpCodec.EncodeSerializable(message.Footer, buffer);
        }

        return buffer.Buffer.AsSpan(buffer.Offset, buffer.Length).ToArray();
    }

    private static AmqpMessage Restore(ReadOnlyMemory<byte> body, ReadOnlyMemory<byte> stored, out bool nullData)
    {
        nullData = false;
        if (stored.IsEmpty)
        {
            return AmqpMessage.Create(new Data { Value = new ArraySegment<byte>(body.ToArray()) });
        }

        var envelope = Readable(stored);
        var kind = (BodyKind)(AmqpCodec.DecodeUByte(envelope) ?? 0);
        var message = kind switch
        {
            BodyKind.Value => AmqpMessage.Create(new AmqpValue { Value = AmqpCodec.DecodeObject(Readable(body)) }),
            BodyKind.Sequence => AmqpMessage.Create(DecodeSequence(body)),
            BodyKind.NullData => AmqpMessage.Create(),
            _ => AmqpMessage.Create(new Data { Value = new ArraySegment<byte>(body.ToArray()) }),
        };
        nullData = kind == BodyKind.NullData;
        var sections = AmqpCodec.DecodeUByte(envelope) ?? 0;
        if ((sections & HasProperties) != 0)
        {
            CopyProperties(AmqpCodec.DecodeKnownType<Properties>(envelope), message.Properties);
        }

        if ((sections & HasAnnotations) != 0)
        {
            foreach (var (key, value) in AmqpCodec.DecodeKnownType<MessageAnnotations>(envelope).Map)
            {
                message.MessageAnnotations.Map[key] = value;
            }
        }

        if ((sections & HasFooter) != 0)
        {
            foreach (var (key, value) in AmqpCodec.DecodeKnownType<Footer>(envelope).Map)
            {
                message.Footer.Map[key] = value;
            }
        }

        return message;
    }

    /// <summary>A buffer to decode from (its constructor over a bare array makes one to write into).</summary>
    private static ByteBuffer Readable(ReadOnlyMemory<byte> bytes)
    {
        var copy = bytes.ToArray();
        return new ByteBuffer(copy, 0, copy.Length);
    }

    private static ArraySegment<byte> SegmentOf(Data data) =>
        data.Value is ArraySegment<byte> segment ? segment : throw new FormatException("A data section holds no binary.");

    private static void CopyProperties(Properties from, Properties to)
    {
        to.MessageId = from.MessageId;
        to.UserId = from.UserId;
        to.To = from.To;
        to.Subject = from.Subject;
        to.ReplyTo = from.ReplyTo;
        to.CorrelationId = from.CorrelationId;
        to.ContentType = from.ContentType;
        to.ContentEncoding = from.ContentEncoding;
        to.AbsoluteExpiryTime = from.AbsoluteExpiryTime;
        to.CreationTime = from.CreationTime;
        to.GroupId = from.GroupId;
        to.GroupSequence = from.GroupSequence;
        to.ReplyToGroupId = from.ReplyToGroupId;
    }

    private static List<AmqpSequence> DecodeSequence(ReadOnlyMemory<byte> body)
    {
        var buffer = Readable(body);
        var sequences = new List<AmqpSequence>();
        while (buffer.Length > 0)
        {
            sequences.Add(new AmqpSequence(AmqpCodec.DecodeList(buffer)));
        }

        return sequences;
    }
}
