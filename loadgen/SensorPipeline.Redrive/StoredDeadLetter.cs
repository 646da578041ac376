using System.Globalization;
using System.Text.Json;

namespace SensorPipeline.Redrive;

/// <summary>The fields of a <c>deadletters</c> document (core's DeadLetterWriter) that re-drive needs, plus the marks
/// re-drive adds (<c>redrivenAt</c>, <c>redriveCount</c>, <c>redrivenTo</c>).</summary>
public sealed record StoredDeadLetter(
    string Id,
    string Reason,
    string Stage,
    int? ReadingIndex,
    bool Reduced,
    DateTimeOffset? DeadLetteredAt,
    DateTimeOffset? RedrivenAt,
    int RedriveCount,
    ReadOnlyMemory<byte> Payload,
    string? ETag)
{
    public static StoredDeadLetter Parse(JsonElement document)
    {
        return new StoredDeadLetter(
            document.GetProperty("id").GetString() ?? "",
            Text(document, "reason") ?? "",
            Text(document, "stage") ?? "",
            document.TryGetProperty("readingIndex", out var index) && index.ValueKind == JsonValueKind.Number ? index.GetInt32() : null,
            document.TryGetProperty("reduced", out var reduced) && reduced.ValueKind == JsonValueKind.True,
            Time(document, "deadLetteredAt"),
            Time(document, "redrivenAt"),
            document.TryGetProperty("redriveCount", out var count) && count.ValueKind == JsonValueKind.Number ? count.GetInt32() : 0,
            document.TryGetProperty("payloadBase64", out var payload) && payload.ValueKind == JsonValueKind.String ? payload.GetBytesFromBase64() : ReadOnlyMemory<byte>.Empty,
            Text(document, "_etag"));
    }

    private static string? Text(JsonElement document, string name) =>
        document.TryGetProperty(name, out var value) && value.ValueKind == JsonValueKind.String ? value.GetString() : null;

    private static DateTimeOffset? Time(JsonElement document, string name) =>
        Text(document, name) is { } text && DateTimeOffset.TryParse(text, CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal, out var time) ? time : null;
}
