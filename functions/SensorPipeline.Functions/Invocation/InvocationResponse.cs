using System.Text.Json;

namespace SensorPipeline.Functions.Invocation;

/// <summary>
/// One output binding's value: the events to send, each UTF-8 text (the splitter's text envelopes). Written as a
/// JSON array of strings; the host sends each element as one event whose body is the UTF-8 of the string.
/// </summary>
internal readonly record struct OutputEvents(string Binding, IReadOnlyList<ReadOnlyMemory<byte>> Texts);

/// <summary>
/// Writes the custom-handler response <c>{"Outputs":{"b":["…",…]},"Logs":[…],"ReturnValue":null}</c>. For an
/// eventHub output (an <c>IAsyncCollector&lt;byte[]&gt;</c> in the host) a JSON array gives one event per element,
/// the UTF-8 of the element's text (functions/README.md, "The wire contract"); an output with nothing to send is
/// left out entirely. The body is flushed to the host every 256 KiB, so a large answer is never held whole.
/// </summary>
internal static class InvocationResponse
{
    private const int FlushBytes = 256 * 1024;

    public static async Task WriteAsync(HttpResponse response, int statusCode, IReadOnlyList<OutputEvents> outputs, IReadOnlyList<string> logs, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(response);
        ArgumentNullException.ThrowIfNull(outputs);
        ArgumentNullException.ThrowIfNull(logs);
        response.StatusCode = statusCode;
        response.ContentType = "application/json; charset=utf-8";
        await using (var writer = new Utf8JsonWriter(response.BodyWriter))
        {
            writer.WriteStartObject();
            writer.WriteStartObject("Outputs"u8);
            foreach (var output in outputs)
            {
                writer.WriteStartArray(output.Binding);
                foreach (var text in output.Texts)
                {
                    writer.WriteStringValue(text.Span);
                    if (writer.BytesPending >= FlushBytes)
                    {
                        writer.Flush();
                        await response.BodyWriter.FlushAsync(cancellationToken);
                    }
                }

                writer.WriteEndArray();
            }

            writer.WriteEndObject();
            writer.WriteStartArray("Logs"u8);
            foreach (var line in logs)
            {
                writer.WriteStringValue(line);
            }

            writer.WriteEndArray();
            writer.WriteNull("ReturnValue"u8);
            writer.WriteEndObject();
        }

        await response.BodyWriter.FlushAsync(cancellationToken);
    }
}
