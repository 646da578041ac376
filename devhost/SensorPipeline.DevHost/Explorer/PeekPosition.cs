using System.Globalization;
using SensorPipeline.EventHubs;

namespace SensorPipeline.DevHost.Explorer;

/// <summary>Where a peek starts, as the Event Hubs clients name positions: a sequence number (<c>from</c>), a byte
/// offset (<c>offset</c>) or an enqueued time (<c>time</c>, ISO 8601); the partition's first retained event otherwise.</summary>
public static class PeekPosition
{
    /// <summary>The sequence number to start at, or an error naming the parameter.</summary>
    public static async ValueTask<(long Sequence, string? Error)> ResolveAsync(IQueryCollection query, EventHubsNamespace hubs, string hub, string partition, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(query);
        ArgumentNullException.ThrowIfNull(hubs);
        var properties = hubs.GetPartitionProperties(hub, partition);
        if (query["from"].ToString() is { Length: > 0 } from)
        {
            return long.TryParse(from, NumberStyles.None, CultureInfo.InvariantCulture, out var sequence)
                ? (sequence, null) : (0, "'from' must be a sequence number ≥ 0.");
        }

        if (query["offset"].ToString() is { Length: > 0 } offsetText)
        {
            return long.TryParse(offsetText, NumberStyles.None, CultureInfo.InvariantCulture, out var offset)
                ? (hubs.SequenceAtOrAfterOffset(hub, partition, offset), null) : (0, "'offset' must be a byte offset ≥ 0.");
        }

        if (query["time"].ToString() is { Length: > 0 } timeText)
        {
            return DateTimeOffset.TryParse(timeText, CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal, out var time)
                ? (await FirstAtOrAfterAsync(hubs, properties, time, cancellationToken), null)
                : (0, "'time' must be an ISO 8601 instant such as 2026-01-01T12:00:00Z.");
        }

        return (properties.BeginningSequenceNumber, null);
    }

    /// <summary>Binary search over sequence numbers (enqueued times only grow along a partition): at most 64 reads of
    /// one event.</summary>
    private static async ValueTask<long> FirstAtOrAfterAsync(EventHubsNamespace hubs, PartitionProperties p, DateTimeOffset time, CancellationToken cancellationToken)
    {
        var (low, high) = (p.BeginningSequenceNumber, p.LastEnqueuedSequenceNumber + 1);
        while (low < high)
        {
            var middle = low + ((high - low) / 2);
            var events = await hubs.ReadAsync(p.Hub, p.PartitionId, middle, 0, 1, TimeSpan.Zero, cancellationToken);
            if (events.Count > 0 && events[0].EnqueuedTime < time)
            {
                low = events[0].SequenceNumber + 1;
            }
            else
            {
                high = middle;
            }
        }

        return low;
    }
}
