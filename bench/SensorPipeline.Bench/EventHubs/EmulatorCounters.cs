using System.Text.Json;

namespace SensorPipeline.EventHubs.Bench;

/// <summary>What devhost's Event Hubs emulator counted over one window: the difference of two readings of <c>GET
/// /status</c>'s <c>counters</c> (see the emulator README), and the figures the senders bench prints from it.</summary>
internal sealed class EmulatorCounters(IReadOnlyDictionary<string, long> totals)
{
    public long this[string name] => totals.TryGetValue(name, out var value) ? value : throw new InvalidOperationException($"/status counters has no '{name}'");

    public long GroupCommits => this["groupCommits"];

    /// <summary>Events one group commit gathered on average.</summary>
    public double EventsPerGroupCommit => this["eventsCommitted"] / (double)Math.Max(1, GroupCommits);

    /// <summary>Time in fsync, in µs.</summary>
    public double FsyncMicros => this["fsyncTicks"] * 1e6 / this["stopwatchTicksPerSecond"];

    public double FsyncMicrosPerGroupCommit => FsyncMicros / Math.Max(1, GroupCommits);

    /// <summary>The share of a window of <paramref name="seconds"/> each of <paramref name="partitions"/> writers spent
    /// in fsync (each partition's writer fsyncs alone, so the partitions' fsyncs overlap).</summary>
    public double FsyncShare(double seconds, int partitions) => FsyncMicros / (seconds * 1e6 * partitions);

    public double FramesInPerEvent(long events) => this["amqpFramesReceived"] / (double)Math.Max(1, events);

    public double FramesOutPerEvent(long events) => this["amqpFramesSent"] / (double)Math.Max(1, events);

    /// <summary>Reads the counters now, and the partition count of <paramref name="hub"/>.</summary>
    public static async Task<(IReadOnlyDictionary<string, long> Totals, int Partitions)> ReadAsync(HttpClient client, string hub, CancellationToken cancellationToken)
    {
        using var response = await client.GetAsync(new Uri("/status", UriKind.Relative), cancellationToken);
        response.EnsureSuccessStatusCode();
        using var status = JsonDocument.Parse(await response.Content.ReadAsStreamAsync(cancellationToken));
        var totals = status.RootElement.GetProperty("counters").EnumerateObject().ToDictionary(p => p.Name, p => p.Value.GetInt64());
        var partitions = status.RootElement.GetProperty("hubs").EnumerateArray()
            .Single(h => h.GetProperty("name").GetString() == hub).GetProperty("partitionCount").GetInt32();
        return (totals, partitions);
    }

    /// <summary>The counts between two readings (a rate such as <c>stopwatchTicksPerSecond</c> is kept as read).</summary>
    public static EmulatorCounters Between(IReadOnlyDictionary<string, long> before, IReadOnlyDictionary<string, long> after) =>
        new(after.ToDictionary(p => p.Key, p => p.Key == "stopwatchTicksPerSecond" ? p.Value : p.Value - before[p.Key]));
}
