namespace SensorPipeline.FunctionsHost.Status;

/// <summary>What one function knows about the health of one partition of its consumer group: the retention gaps its
/// listener crossed (events removed before it read them) and the stall detector's last verdict. Written by the listener
/// and the <c>StallMonitor</c>, read by the status snapshot.</summary>
internal sealed class PartitionHealth
{
    private readonly Lock _lock = new();
    private long _retentionGaps;
    private long _retentionGapEvents;
    private StallVerdict _stall = StallVerdict.NotStalled;
    private long _stalls;
    private long _gapCountedThrough = -1;

    /// <summary>Times the listener found its next sequence number already removed by retention.</summary>
    public long RetentionGaps => Interlocked.Read(ref _retentionGaps);

    /// <summary>Events removed by retention before this consumer group read them, summed over the gaps.</summary>
    public long RetentionGapEvents => Interlocked.Read(ref _retentionGapEvents);

    /// <summary>Times a stall started on this partition since devhost started.</summary>
    public long Stalls
    {
        get
        {
            lock (_lock)
            {
                return _stalls;
            }
        }
    }

    /// <summary>Counts the gap <paramref name="from"/>..<paramref name="to"/> (inclusive) minus any part counted before:
    /// a batch redelivered after a restart crosses the same gap again, and it must not count twice. Returns the events
    /// newly counted (0: nothing new, nothing to log).</summary>
    public long CountRetentionGap(long from, long to)
    {
        lock (_lock)
        {
            if (to <= _gapCountedThrough)
            {
                return 0;
            }

            var lost = to - Math.Max(from, _gapCountedThrough + 1) + 1;
            _gapCountedThrough = to;
            Interlocked.Increment(ref _retentionGaps);
            Interlocked.Add(ref _retentionGapEvents, lost);
            return lost;
        }
    }

    /// <summary>The stall detector's latest verdict (not stalled until it first looked).</summary>
    public StallVerdict Stall
    {
        get
        {
            lock (_lock)
            {
                return _stall;
            }
        }
    }

    /// <summary>Records a verdict; returns the previous one so the caller can log a start or an end once.</summary>
    public StallVerdict Record(StallVerdict verdict)
    {
        lock (_lock)
        {
            var previous = _stall;
            _stall = verdict;
            if (verdict.Stalled && !previous.Stalled)
            {
                _stalls++;
            }

            return previous;
        }
    }
}

/// <summary>The stall detector's view of a partition at <see cref="EvaluatedAt"/>.</summary>
/// <param name="Stalled">Lag &gt; 0 and either no checkpoint progress for longer than the threshold or the oldest
/// unprocessed event older than the retention fraction.</param>
/// <param name="CheckpointSequenceNumber">The checkpoint the detector saw (null: none yet).</param>
/// <param name="Lag">Events after the checkpoint.</param>
/// <param name="ProgressAt">When the checkpoint last moved or the backlog was last seen empty (null before the first look).</param>
/// <param name="OldestUnprocessedEnqueuedTime">The enqueued time of the next event to process; null when there is none.</param>
/// <param name="EvaluatedAt">When the detector looked (null: never).</param>
internal sealed record StallVerdict(bool Stalled, long? CheckpointSequenceNumber, long Lag, DateTimeOffset? ProgressAt, DateTimeOffset? OldestUnprocessedEnqueuedTime, DateTimeOffset? EvaluatedAt)
{
    public static readonly StallVerdict NotStalled = new(false, null, 0, null, null, null);
}
