using SensorPipeline.EventHubs.Http;

namespace SensorPipeline.Fuzz.Targets;

/// <summary>
/// A REST send body (<c>application/vnd.microsoft.servicebus.json</c>) through the Event Hubs emulator's
/// <see cref="BatchParser"/>, with the arena the send endpoint gives it (as many bytes as the body). Every event it
/// returns must lie inside the body or the arena.
/// </summary>
internal static class EventHubsBatchTarget
{
    internal static void Run(byte[] body)
    {
        var arena = new byte[Math.Max(1, body.Length)];
        foreach (var e in BatchParser.Parse(body, arena))
        {
            _ = e.Body.ToArray();
            _ = e.Properties?.Count;
        }
    }
}
