using System.Buffers;
using System.Globalization;
using System.Net.Http.Headers;
using System.Text.Encodings.Web;
using System.Text.Json;

namespace SensorPipeline.Functions.Tests.Infrastructure;

/// <summary>One event as the trigger delivers it.</summary>
internal sealed record HubEvent(byte[] Body, long SequenceNumber, DateTimeOffset EnqueuedTime);

/// <summary>
/// Builds a request body exactly as the Functions host sends it to a custom handler for an Event Hubs batch
/// (dataType binary, cardinality many): every array-valued datum is a JSON string holding JSON text, enqueued
/// times are written by Newtonsoft from a DateTime of unspecified kind (no 'Z'), plus PartitionContext and sys.
/// </summary>
internal static class HostRequest
{
    private static readonly JsonWriterOptions Newtonsoftish = new() { Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping };

    public static byte[] Build(string function, string hub, string consumerGroup, string partitionId, IReadOnlyList<HubEvent> events, int? retryCount = null)
    {
        var buffer = new ArrayBufferWriter<byte>();
        using (var writer = new Utf8JsonWriter(buffer, Newtonsoftish))
        {
            writer.WriteStartObject();
            writer.WriteStartObject("Data");
            writer.WriteString("events", Inner(w =>
            {
                foreach (var e in events)
                {
                    w.WriteBase64StringValue(e.Body);
                }
            }));
            writer.WriteEndObject();

            writer.WriteStartObject("Metadata");
            foreach (var name in new[] { "TriggerPartitionContext", "PartitionContext" })
            {
                writer.WriteStartObject(name);
                writer.WriteBoolean("IsCheckpointingAfterInvocation", true);
                writer.WriteString("FullyQualifiedNamespace", "127.0.0.1");
                writer.WriteString("EventHubName", hub);
                writer.WriteString("ConsumerGroup", consumerGroup);
                writer.WriteString("PartitionId", partitionId);
                writer.WriteEndObject();
            }

            writer.WriteString("PartitionKeyArray", Inner(w => events.ToList().ForEach(_ => w.WriteNullValue())));
            writer.WriteString("OffsetArray", Inner(w => events.ToList().ForEach(e => w.WriteStringValue((e.SequenceNumber * 100).ToString(CultureInfo.InvariantCulture)))));
            writer.WriteString("SequenceNumberArray", Inner(w => events.ToList().ForEach(e => w.WriteNumberValue(e.SequenceNumber))));
            writer.WriteString("EnqueuedTimeUtcArray", Inner(w => events.ToList().ForEach(e => w.WriteStringValue(Unspecified(e.EnqueuedTime)))));
            writer.WriteString("PropertiesArray", Inner(w => events.ToList().ForEach(_ => { w.WriteStartObject(); w.WriteEndObject(); })));
            writer.WriteString("SystemPropertiesArray", Inner(w => events.ToList().ForEach(e =>
            {
                w.WriteStartObject();
                w.WriteNumber("x-opt-sequence-number", e.SequenceNumber);
                w.WriteString("x-opt-enqueued-time", e.EnqueuedTime.UtcDateTime.ToString("yyyy-MM-ddTHH:mm:ss.fffffffZ", CultureInfo.InvariantCulture));
                w.WriteNumber("SequenceNumber", e.SequenceNumber);
                w.WriteString("EnqueuedTimeUtc", Unspecified(e.EnqueuedTime));
                w.WriteEndObject();
            })));
            writer.WriteStartObject("sys");
            writer.WriteString("MethodName", function);
            writer.WriteString("UtcNow", DateTime.UtcNow.ToString("yyyy-MM-ddTHH:mm:ss.fffffffZ", CultureInfo.InvariantCulture));
            writer.WriteString("RandGuid", Guid.NewGuid().ToString());
            writer.WriteEndObject();
            if (retryCount is { } count)
            {
                writer.WriteStartObject("RetryContext");
                writer.WriteNumber("RetryCount", count);
                writer.WriteNumber("MaxRetryCount", -1);
                writer.WriteNull("Exception");
                writer.WriteEndObject();
            }

            writer.WriteEndObject();
            writer.WriteEndObject();
        }

        return buffer.WrittenSpan.ToArray();
    }

    /// <summary>The request as the host sends it: POST, JSON, chunked (no Content-Length).</summary>
    public static HttpContent Content(byte[] body)
    {
        var content = new StreamContent(new MemoryStream(body));
        content.Headers.ContentType = new MediaTypeHeaderValue("application/json") { CharSet = "utf-8" };
        return content;
    }

    private static string Unspecified(DateTimeOffset time) => time.UtcDateTime.ToString("yyyy-MM-ddTHH:mm:ss.fffffff", CultureInfo.InvariantCulture);

    private static string Inner(Action<Utf8JsonWriter> items)
    {
        var buffer = new ArrayBufferWriter<byte>();
        using (var writer = new Utf8JsonWriter(buffer, Newtonsoftish))
        {
            writer.WriteStartArray();
            items(writer);
            writer.WriteEndArray();
        }

        return System.Text.Encoding.UTF8.GetString(buffer.WrittenSpan);
    }
}
