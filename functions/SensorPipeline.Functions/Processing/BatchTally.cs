using SensorPipeline.Core.DeadLetters;
using SensorPipeline.Core.Splitting;
using SensorPipeline.Functions.Telemetry;

namespace SensorPipeline.Functions.Processing;

/// <summary>
/// What one processor invocation stored, gathered while it writes and reported to the metrics only at its commit point:
/// an attempt that fails after writing some readings reports nothing, so a retried batch is counted once. Parts (the
/// subsets run while isolating poison) are added only when they completed.
/// </summary>
internal sealed class BatchTally
{
    private readonly List<(long EnqueuedUnixMs, long ObservedUnixMs)> _written = [];
    private readonly List<DeadLetter> _deadLetters = [];

    public WriteCounts Counts { get; private set; }

    public int ReadingsReceived { get; private set; }

    /// <summary>One reading's document was stored (called concurrently by the write loop).</summary>
    public void Written(long enqueuedUnixMs, long observedUnixMs)
    {
        lock (_written)
        {
            _written.Add((enqueuedUnixMs, observedUnixMs));
        }
    }

    /// <summary>The part's writes all completed.</summary>
    public void Stored(WriteCounts counts, IReadOnlyList<DeadLetter> deadLetters)
    {
        Counts = counts;
        _deadLetters.AddRange(deadLetters);
    }

    /// <summary>Adds a completed part.</summary>
    public void Add(BatchTally part, int readingsReceived)
    {
        ArgumentNullException.ThrowIfNull(part);
        _written.AddRange(part._written);
        _deadLetters.AddRange(part._deadLetters);
        var c = part.Counts;
        Counts = new WriteCounts(Counts.Live + c.Live, Counts.Archived + c.Archived, Counts.DeviceStates + c.DeviceStates, Counts.DeadLetters + c.DeadLetters, Counts.RedundantStale + c.RedundantStale);
        ReadingsReceived += readingsReceived;
    }

    /// <summary>The commit: every metric of the batch, once.</summary>
    public void Report(PipelineMetrics metrics, string function, string partition, IReadOnlyList<InputEvent> events)
    {
        ArgumentNullException.ThrowIfNull(metrics);
        metrics.BatchReceived(function, partition, events, ReadingsReceived);
        foreach (var (enqueued, observed) in _written)
        {
            metrics.ReadingWritten(function, partition, enqueued, observed);
        }

        metrics.BatchStored(function, partition, Counts.Live + Counts.Archived, Counts.Archived);
        metrics.DeadLettered(function, _deadLetters);
    }
}
