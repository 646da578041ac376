using SensorPipeline.EventHubs;

namespace SensorPipeline.EventHubs.Tests;

/// <summary>System time shifted by an adjustable offset: timers and delays stay real, "now" can jump ahead.</summary>
internal sealed class ShiftedTimeProvider : TimeProvider
{
    public TimeSpan Offset { get; set; }

    public override DateTimeOffset GetUtcNow() => System.GetUtcNow() + Offset;
}

internal static class TestData
{
    public static readonly NamespaceConfig Config = new("testns", [
        new EventHubDescription("hub", 4, ["$Default", "group"]),
        new EventHubDescription("one", 1, ["$Default"]),
    ]);

    public static EventToAppend Event(string body, string? key = null, IReadOnlyDictionary<string, object?>? properties = null) =>
        new(System.Text.Encoding.UTF8.GetBytes(body), key, properties);

    public static string Text(StoredEvent e) => System.Text.Encoding.UTF8.GetString(e.Body.Span);
}
