using System.Buffers;
using System.Text;
using System.Text.Json;
using SensorPipeline.FunctionsHost.Config;
using SensorPipeline.FunctionsHost.Hubs;

namespace SensorPipeline.FunctionsHost.Invocation;

/// <summary>Writes the custom handler request body exactly as the Functions host builds it
/// (ScriptInvocationContextExtensions.ToHttpScriptInvocationContext): <c>{"Data": {trigger: …}, "Metadata": {…}}</c>.
/// Every array-valued binding datum fails JObject.FromObject in the host and is sent as
/// JsonConvert.SerializeObject(value) — a JSON string holding JSON text — so the inner texts are written first
/// into a scratch buffer and then written as one escaped string value. One instance per partition listener
/// (not thread-safe); buffers are reused across invocations.</summary>
internal sealed class InvocationRequestWriter : IDisposable
{
    private readonly ArrayBufferWriter<byte> _inner = new(16 * 1024);
    private readonly ArrayBufferWriter<byte> _escaped = new(16 * 1024);
    private readonly Utf8JsonWriter _innerWriter;

    public InvocationRequestWriter() => _innerWriter = new Utf8JsonWriter(_inner, NewtonsoftFormats.Compact);

    public void Write(IBufferWriter<byte> output, InvocationBatch batch)
    {
        using var writer = new Utf8JsonWriter(output, NewtonsoftFormats.Compact);
        var trigger = batch.Function.Trigger;
        writer.WriteStartObject();

        writer.WritePropertyName("Data"u8);
        writer.WriteStartObject();
        writer.WritePropertyName(trigger.Name);
        WriteInner(writer, batch, static (w, b) => WriteBodies(w, b.Events, b.Function.Trigger.DataType));
        writer.WriteEndObject();

        writer.WritePropertyName("Metadata"u8);
        writer.WriteStartObject();
        WritePartitionContext(writer, "TriggerPartitionContext"u8, batch);
        WritePartitionContext(writer, "PartitionContext"u8, batch);
        WriteBindingArrays(writer, batch);
        WriteSys(writer, batch);

        if (batch.Retry is { } retry)
        {
            WriteRetryContext(writer, retry, batch.Function.Name);
        }

        writer.WriteEndObject();
        writer.WriteEndObject();
        writer.Flush();
    }

    public void Dispose() => _innerWriter.Dispose();

    /// <summary>The per-event binding data, each array sent as a JSON string holding JSON text.</summary>
    private void WriteBindingArrays(Utf8JsonWriter writer, InvocationBatch batch)
    {
        WriteArrayProperty(writer, "PartitionKeyArray"u8, batch, WritePartitionKeys);
        WriteArrayProperty(writer, "OffsetArray"u8, batch, WriteOffsetStrings);
        WriteArrayProperty(writer, "OffsetStringArray"u8, batch, WriteOffsetStrings);
        WriteArrayProperty(writer, "SequenceNumberArray"u8, batch, WriteSequenceNumbers);
        WriteArrayProperty(writer, "EnqueuedTimeUtcArray"u8, batch, WriteEnqueuedTimes);
        WriteArrayProperty(writer, "PropertiesArray"u8, batch, WriteProperties);
        WriteArrayProperty(writer, "SystemPropertiesArray"u8, batch, WriteSystemPropertiesArray);
    }

    private static void WriteSys(Utf8JsonWriter writer, InvocationBatch batch)
    {
        writer.WritePropertyName("sys"u8);
        writer.WriteStartObject();
        writer.WriteString("MethodName"u8, batch.Function.Name);
        writer.WritePropertyName("UtcNow"u8);
        NewtonsoftFormats.WriteDateTime(writer, batch.UtcNow, utcSuffix: true);
        writer.WriteString("RandGuid"u8, batch.RandGuid);
        writer.WriteEndObject();
    }

    private void WriteArrayProperty(Utf8JsonWriter writer, ReadOnlySpan<byte> name, InvocationBatch batch, Action<Utf8JsonWriter, InvocationBatch> writeItems)
    {
        writer.WritePropertyName(name);
        WriteInner(writer, batch, writeItems);
    }

    private void WriteInner(Utf8JsonWriter outer, InvocationBatch batch, Action<Utf8JsonWriter, InvocationBatch> writeItems)
    {
        _inner.ResetWrittenCount();
        _innerWriter.Reset(_inner);
        _innerWriter.WriteStartArray();
        writeItems(_innerWriter, batch);
        _innerWriter.WriteEndArray();
        _innerWriter.Flush();
        WriteAsJsonString(outer, _inner.WrittenSpan, _escaped);
    }

    /// <summary>Writes <paramref name="json"/> (text the inner writer produced) as one JSON string value, escaped as
    /// Newtonsoft escapes it. The inner writer already turned every control character into an escape sequence, so only
    /// '"' and '\' remain to escape — done here with a vectorized search instead of the writer's general escaper,
    /// which costs ~17 ns per byte with a custom encoder (this is the hot path: the whole batch passes through it).</summary>
    internal static void WriteAsJsonString(Utf8JsonWriter outer, ReadOnlySpan<byte> json, ArrayBufferWriter<byte> scratch)
    {
        scratch.ResetWrittenCount();
        var destination = scratch.GetSpan((json.Length * 2) + 2);
        var written = 0;
        destination[written++] = (byte)'"';
        while (true)
        {
            var next = json.IndexOfAny((byte)'"', (byte)'\\');
            if (next < 0)
            {
                json.CopyTo(destination[written..]);
                written += json.Length;
                break;
            }

            json[..next].CopyTo(destination[written..]);
            written += next;
            destination[written++] = (byte)'\\';
            destination[written++] = json[next];
            json = json[(next + 1)..];
        }

        destination[written++] = (byte)'"';
        scratch.Advance(written);
        outer.WriteRawValue(scratch.WrittenSpan, skipInputValidation: true);
    }

    private static void WriteBodies(Utf8JsonWriter writer, IReadOnlyList<ReceivedEvent> events, TriggerDataType dataType)
    {
        foreach (var e in events)
        {
            if (dataType == TriggerDataType.Binary)
            {
                // byte[][] serializes each body as a base64 string.
                writer.WriteBase64StringValue(e.Body.Span);
            }
            else
            {
                // string[]: the body decoded as UTF-8 (invalid sequences become U+FFFD, as Encoding.UTF8 does in the host).
                writer.WriteStringValue(Encoding.UTF8.GetString(e.Body.Span));
            }
        }
    }

    private static void WriteOffsetStrings(Utf8JsonWriter writer, InvocationBatch batch)
    {
        Span<byte> digits = stackalloc byte[20];
        foreach (var e in batch.Events)
        {
            e.Offset.TryFormat(digits, out var length, default, System.Globalization.CultureInfo.InvariantCulture);
            writer.WriteStringValue(digits[..length]);
        }
    }

    private static void WritePartitionKeys(Utf8JsonWriter writer, InvocationBatch batch)
    {
        foreach (var e in batch.Events)
        {
            writer.WriteStringValue(e.PartitionKey);
        }
    }

    private static void WriteSequenceNumbers(Utf8JsonWriter writer, InvocationBatch batch)
    {
        foreach (var e in batch.Events)
        {
            writer.WriteNumberValue(e.SequenceNumber);
        }
    }

    private static void WriteEnqueuedTimes(Utf8JsonWriter writer, InvocationBatch batch)
    {
        foreach (var e in batch.Events)
        {
            NewtonsoftFormats.WriteDateTime(writer, NewtonsoftFormats.EnqueuedTimeUtc(e.EnqueuedTime), utcSuffix: false);
        }
    }

    private static void WriteProperties(Utf8JsonWriter writer, InvocationBatch batch)
    {
        foreach (var e in batch.Events)
        {
            writer.WriteStartObject();
            foreach (var property in e.Properties)
            {
                writer.WritePropertyName(property.Key);
                NewtonsoftFormats.WritePropertyValue(writer, property.Value);
            }

            writer.WriteEndObject();
        }
    }

    private static void WriteSystemPropertiesArray(Utf8JsonWriter writer, InvocationBatch batch)
    {
        foreach (var e in batch.Events)
        {
            WriteSystemProperties(writer, e);
        }
    }

    private static void WritePartitionContext(Utf8JsonWriter writer, ReadOnlySpan<byte> name, InvocationBatch batch)
    {
        // TriggerPartitionContext derives from PartitionContext; Newtonsoft writes the derived property first.
        writer.WritePropertyName(name);
        writer.WriteStartObject();
        writer.WriteBoolean("IsCheckpointingAfterInvocation"u8, batch.IsCheckpointingAfterInvocation);
        writer.WriteString("FullyQualifiedNamespace"u8, batch.Function.FullyQualifiedNamespace);
        writer.WriteString("EventHubName"u8, batch.Function.Trigger.EventHubName);
        writer.WriteString("ConsumerGroup"u8, batch.Function.Trigger.ConsumerGroup);
        writer.WriteString("PartitionId"u8, batch.PartitionId);
        writer.WriteEndObject();
    }

    private static void WriteSystemProperties(Utf8JsonWriter writer, ReceivedEvent e)
    {
        var enqueued = NewtonsoftFormats.EnqueuedTimeUtc(e.EnqueuedTime);
        Span<byte> offset = stackalloc byte[20];
        e.Offset.TryFormat(offset, out var offsetLength, default, System.Globalization.CultureInfo.InvariantCulture);
        offset = offset[..offsetLength];
        writer.WriteStartObject();

        // The AMQP message annotations the service stamps on every event …
        writer.WriteNumber("x-opt-sequence-number"u8, e.SequenceNumber);
        writer.WriteString("x-opt-offset"u8, offset);
        writer.WritePropertyName("x-opt-enqueued-time"u8);
        NewtonsoftFormats.WriteDateTime(writer, enqueued, utcSuffix: true);
        if (e.PartitionKey is not null)
        {
            writer.WriteString("x-opt-partition-key"u8, e.PartitionKey);
        }

        // … then the keys the extension adds "to maintain structure of bindingdata".
        writer.WriteNumber("SequenceNumber"u8, e.SequenceNumber);
        writer.WriteNumber("Offset"u8, e.Offset);
        writer.WriteString("OffsetString"u8, offset);
        writer.WriteString("PartitionKey"u8, e.PartitionKey);
        writer.WritePropertyName("EnqueuedTimeUtc"u8);
        NewtonsoftFormats.WriteDateTime(writer, enqueued, utcSuffix: false);
        writer.WriteEndObject();
    }

    private static void WriteRetryContext(Utf8JsonWriter writer, RetryState retry, string functionName)
    {
        // Microsoft.Azure.WebJobs.RetryContext as Newtonsoft serializes it: the exception through ISerializable.
        writer.WritePropertyName("RetryContext"u8);
        writer.WriteStartObject();
        writer.WriteNumber("RetryCount"u8, retry.RetryCount);
        writer.WriteNumber("MaxRetryCount"u8, retry.MaxRetryCount);
        writer.WritePropertyName("Exception"u8);
        if (retry.LastFailure is null)
        {
            writer.WriteNullValue();
        }
        else
        {
            writer.WriteStartObject();
            writer.WriteString("ClassName"u8, "Microsoft.Azure.WebJobs.Host.FunctionInvocationException");
            writer.WriteString("Message"u8, $"Exception while executing function: Functions.{functionName}");
            writer.WritePropertyName("InnerException"u8);
            WriteException(writer, retry.LastFailure);
            writer.WriteNumber("HResult"u8, -2146233088);
            writer.WriteEndObject();
        }

        writer.WriteNull("Instance"u8);
        writer.WritePropertyName("State"u8);
        writer.WriteStartObject();
        writer.WriteEndObject();
        writer.WriteEndObject();
    }

    private static void WriteException(Utf8JsonWriter writer, Exception exception)
    {
        writer.WriteStartObject();
        writer.WriteString("ClassName"u8, exception.GetType().FullName);
        writer.WriteString("Message"u8, exception.Message);
        writer.WriteNull("InnerException"u8);
        writer.WriteNumber("HResult"u8, exception.HResult);
        writer.WriteEndObject();
    }
}
