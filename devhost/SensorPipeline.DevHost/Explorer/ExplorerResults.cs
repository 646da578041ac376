using System.Text.Json;

namespace SensorPipeline.DevHost.Explorer;

/// <summary>How the explorer's API answers: JSON written straight to the response, and RFC 9457 problems.</summary>
public static class ExplorerResults
{
    public static async Task JsonAsync(HttpContext context, Action<Utf8JsonWriter> write, string contentType = "application/json; charset=utf-8")
    {
        ArgumentNullException.ThrowIfNull(context);
        ArgumentNullException.ThrowIfNull(write);
        context.Response.ContentType = contentType;
        context.Response.Headers.CacheControl = "no-store";
        await using var writer = new Utf8JsonWriter(context.Response.BodyWriter);
        write(writer);
        await writer.FlushAsync(context.RequestAborted);
    }

    public static Task ProblemAsync(HttpContext context, int status, string detail)
    {
        ArgumentNullException.ThrowIfNull(context);
        context.Response.StatusCode = status;
        return JsonAsync(context, writer =>
        {
            writer.WriteStartObject();
            writer.WriteNumber("status", status);
            writer.WriteString("detail", detail);
            writer.WriteEndObject();
        }, "application/problem+json");
    }
}
