namespace SensorPipeline.EventHubs.Storage;

internal sealed partial class PartitionLog
{
    /// <summary>The sequence number of the first visible event whose offset is at least <paramref name="offset"/>
    /// (the next one to be written when none is); the oldest retained event when the offset is older than retention.
    /// Offsets are byte positions, so an offset between two events finds the later one.</summary>
    public long SequenceAtOrAfterOffset(long offset)
    {
        var head = Volatile.Read(ref _head);
        var segments = Volatile.Read(ref _segments);
        for (var s = 0; s < segments.Length; s++)
        {
            var segment = segments[s];
            var visible = (int)Math.Clamp(head.VisibleNext - segment.BaseSequence, 0, segment.Count);
            if (visible == 0 || segment.OffsetOf(segment.Positions[visible - 1]) < offset)
            {
                continue;
            }

            var positions = segment.Positions;
            int low = 0, high = visible - 1;
            while (low < high)
            {
                var mid = (low + high) / 2;
                if (segment.OffsetOf(positions[mid]) >= offset)
                {
                    high = mid;
                }
                else
                {
                    low = mid + 1;
                }
            }

            return segment.BaseSequence + low;
        }

        return head.VisibleNext;
    }
}
