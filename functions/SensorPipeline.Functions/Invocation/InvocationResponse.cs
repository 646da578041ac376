using System.Text.Json;

namespace SensorPipeline.Functions.Invocation;

/// <summary>
/// Writes the custom-handler response <c>{"Outputs":{},"Logs":[…],"ReturnValue":null}</c>. No function has an output
/// binding: the splitter sends its envelopes with the Event Hubs client itself (<c>EnvelopeForwarder</c>), so the
/// answer carries only the invocation's log lines.
/// </summary>
internal static class InvocationResponse
{
    public static async Task WriteAsync(HttpResponse response, int statusCode, IReadOnlyList<string> logs, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(response);
        ArgumentNullException.ThrowIfNull(logs);
        response.StatusCode = statusCode;
        response.ContentType = "application/json; charset=utf-8";
        await using (var writer = new Utf8JsonWriter(response.BodyWriter))
        {
            writer.WriteStartObject();
            writer.WriteStartObject("Outputs"u8);
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
