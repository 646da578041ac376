namespace SensorPipeline.EventHubs.Storage;

/// <summary>What a partition's writer publishes and its lock-free readers see. The writer publishes in this order:
/// segment positions and cache, the segment list (<see cref="Segments"/>), then the head (<see cref="Head"/>, only
/// after the data is as durable as the policy demands), then it wakes the readers waiting on <see cref="Published"/>.</summary>
internal sealed class PartitionState
{
    private Segment[] _segments;
    private Head _head;
    private TaskCompletionSource _published = new(TaskCreationOptions.RunContinuationsAsynchronously);

    public PartitionState(string hub, string partitionId, Segment[] segments, long nextSequence, RecentCache cache)
    {
        Hub = hub;
        PartitionId = partitionId;
        Cache = cache;
        _segments = segments;
        _head = HeadOf(segments, nextSequence);
    }

    public string Hub { get; }

    public string PartitionId { get; }

    /// <summary>The most recent records, shared: the writer appends and drops, readers find.</summary>
    public RecentCache Cache { get; }

    /// <summary>The segments, oldest first; the last is the one being written. Only the writer replaces the list.</summary>
    public Segment[] Segments
    {
        get => Volatile.Read(ref _segments);
        set => Volatile.Write(ref _segments, value);
    }

    public Head Current => Volatile.Read(ref _head);

    /// <summary>Completes at the next publish (or at shutdown): take it before reading the head, so a publish in
    /// between still wakes the reader.</summary>
    public Task Published => Volatile.Read(ref _published).Task;

    /// <summary>Makes events below the head's <see cref="Head.VisibleNext"/> visible and wakes the waiting readers.</summary>
    public void Publish(Head head)
    {
        Volatile.Write(ref _head, head);
        Interlocked.Exchange(ref _published, new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously)).TrySetResult();
    }

    /// <summary>Wakes the readers for good once the writer has stopped.</summary>
    public void ReleaseReaders() => Volatile.Read(ref _published).TrySetResult();

    private static Head HeadOf(Segment[] segments, long next)
    {
        for (var i = segments.Length - 1; i >= 0; i--)
        {
            var s = segments[i];
            if (s.Count > 0)
            {
                return new Head(next, s.OffsetOf(s.Positions[s.Count - 1]), s.LastTicks);
            }
        }

        return new Head(next, -1, 0);
    }

    /// <summary>What readers may see: events below <see cref="VisibleNext"/> are acknowledged.</summary>
    internal sealed record Head(long VisibleNext, long LastOffset, long LastTicks);
}
