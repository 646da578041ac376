using System.Text;

namespace SensorPipeline.EventHubs.Storage;

/// <summary>Turns a batch of events into unstamped records on the caller's thread (callers run in parallel; the
/// writer loop only stamps and writes them): measured against the service's size limits, then encoded.</summary>
internal static class BatchEncoder
{
    /// <summary>Checks every event and the batch against the size limit, keeping each event's key and properties
    /// lengths in <paramref name="lengths"/> for <see cref="Encode"/>; returns the records' total size. Event Hubs judges
    /// the bytes of the AMQP message a client sends; when the transport had them (<paramref name="transferJudged"/>, AMQP)
    /// it judged them, and only the log's own bounds apply here (a record's stored form is not its wire form: properties
    /// are stored wider than AMQP's compact encodings, a batch's key is stored with each event). Otherwise (REST, the
    /// devhost routes) there is no AMQP message, and the events are measured as the service would count them.</summary>
    public static long Measure(IReadOnlyList<EventToAppend> events, int[] lengths, bool transferJudged)
    {
        var eventLimit = transferJudged ? RecordFormat.MaxStoredEventSize : EventLogOptions.MaxEventSizeBytes;
        long batchSize = 0;
        long recordBytes = 0;
        for (var i = 0; i < events.Count; i++)
        {
            var e = events[i] ?? throw new ArgumentException($"Event {i} is null.", nameof(events));
            var keyLength = e.PartitionKey is null ? 0 : Encoding.UTF8.GetByteCount(e.PartitionKey);
            var propertiesLength = PropertyCodec.Measure(e.Properties);
            var size = RecordFormat.EventSize(e.Body.Length, keyLength, propertiesLength, e.AmqpEnvelope.Length);
            if (size > eventLimit)
            {
                throw EventTooLargeException.For(events.Count == 1 ? "The event" : $"Event {i} of the batch", size, eventLimit);
            }

            lengths[2 * i] = keyLength;
            lengths[(2 * i) + 1] = propertiesLength;

            // A single event is sent as a message of its own; in a batch every event brings its AMQP framing, which
            // the service counts (so a batch of empty events is not 0 bytes).
            batchSize += events.Count == 1 ? size : RecordFormat.BatchedEventSize(size);
            recordBytes += RecordFormat.RecordOverhead + size;
        }

        if (!transferJudged && batchSize > EventLogOptions.MaxEventSizeBytes)
        {
            throw EventTooLargeException.For($"The batch of {events.Count} events (each with its AMQP framing, as the service counts it)", batchSize, EventLogOptions.MaxEventSizeBytes);
        }

        return recordBytes <= RecordFormat.MaxStoredBatchBytes
            ? recordBytes
            : throw EventTooLargeException.For($"The batch of {events.Count} events, as stored,", recordBytes, RecordFormat.MaxStoredBatchBytes);
    }

    public static int Encode(IReadOnlyList<EventToAppend> events, int[] lengths, byte[] buffer)
    {
        var at = 0;
        for (var i = 0; i < events.Count; i++)
        {
            var e = events[i];
            at += RecordFormat.WriteUnstamped(buffer.AsSpan(at), e.PartitionKey, lengths[2 * i], e.Properties, lengths[(2 * i) + 1], e.AmqpEnvelope.Span, e.Body.Span);
        }

        return at;
    }
}
