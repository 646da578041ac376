using Microsoft.Extensions.Logging;

namespace SensorPipeline.EventHubs.Storage;

/// <summary>Drops a partition's expired segments: whole sealed segments, oldest first, while the partition is over
/// its size limit or the segment's newest event is older than the retention period. The segment being written is never
/// deleted. Runs on the writer loop only (after a segment rolls, and on the periodic retention request).</summary>
internal sealed class PartitionRetention(PartitionState state, EventLogOptions options, TimeProvider time, ILogger logger)
{
    public void Apply()
    {
        var segments = state.Segments;
        var oldest = time.GetUtcNow().UtcTicks - options.RetentionPeriod.Ticks;
        var total = segments.Sum(s => s.Length);
        var drop = 0;
        while (drop < segments.Length - 1 && (total > options.RetentionMaxBytesPerPartition || segments[drop].LastTicks < oldest))
        {
            total -= segments[drop].Length;
            drop++;
        }

        if (drop == 0)
        {
            return;
        }

        state.Segments = segments[drop..];
        for (var i = 0; i < drop; i++)
        {
            // Readers that already picked this segment get FileNotFoundException and retry from the new beginning.
            state.Cache.Drop(segments[i]);
            SegmentFiles.Delete(segments[i].LogPath);
        }

        EventHubsLog.SegmentsDeleted(logger, state.Hub, state.PartitionId, drop, segments[drop].BaseSequence);
    }

    /// <summary>The periodic pass: a failure is logged and the next pass tries again.</summary>
    public void ApplyLogged()
    {
        try
        {
            Apply();
        }
        catch (IOException e)
        {
            EventHubsLog.RetentionFailed(logger, state.Hub, state.PartitionId, e);
        }
    }
}
