using System.Text.Json;
using Microsoft.AspNetCore.Http;

namespace SensorPipeline.EventHubs.Http;

/// <summary>Writes an RFC 9457 problem document: a clear answer for every rejected request.</summary>
internal static class Problem
{
    public static async Task WriteAsync(HttpContext context, int status, string title, string detail)
    {
        var response = context.Response;
        response.StatusCode = status;
        response.ContentType = "application/problem+json";
        await using var writer = new Utf8JsonWriter(response.BodyWriter);
        writer.WriteStartObject();
        writer.WriteNumber("status", status);
        writer.WriteString("title", title);
        writer.WriteString("detail", detail);
        writer.WriteEndObject();
        await writer.FlushAsync(context.RequestAborted);
    }
}
