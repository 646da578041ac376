using System.Text.Json;
using Microsoft.AspNetCore.Http;

namespace SensorPipeline.Functions.Invocation;

/// <summary>One output binding's value: the bytes of one event, sent by the host as ONE binary event.</summary>
internal readonly record struct OutputEvent(string Binding, ReadOnlyMemory<byte> Body);

/// <summary>
/// Writes the custom-handler response <c>{"Outputs":{…},"Logs":[…],"ReturnValue":null}</c>. An eventHub output
/// whose value is a single valid base64 string (on a binding whose dataType is not binary) is decoded by the
/// host and sent as one binary event; an output with nothing to send is left out entirely.
/// </summary>
internal static class InvocationResponse
{
    public static async Task WriteAsync(HttpResponse response, int statusCode, IReadOnlyList<OutputEvent> outputs, IReadOnlyList<string> logs, CancellationToken cancellationToken)
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
                writer.WriteBase64String(output.Binding, output.Body.Span);
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
