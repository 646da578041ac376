using SensorPipeline.Core.Telemetry;
using SensorPipeline.LoadGen.Sending;

namespace SensorPipeline.LoadGen.Run;

/// <summary>Live counters for the progress line, updated by concurrent sends without a lock.</summary>
internal sealed class RunCounters
{
    private long _events;
    private long _readings;
    private long _errors;
    private long _retries;

    /// <summary>Send latency buckets: the pipeline's (<see cref="LatencyBuckets"/>, 8 per doubling) extended down to
    /// 2^-7 ms ≈ 7.8 µs, since a send on loopback can take tens of microseconds. From 1 ms up the bounds are the
    /// pipeline's own, so a send percentile and a pipeline stage's percentile of the same latencies are the same number.</summary>
    public static readonly LatencyBucketLayout SendLatencyBuckets = new(LatencyBuckets.FirstUpperBoundMs / 128, LatencyBuckets.PerDoubling, LatencyBuckets.MaxTrackedMs);

    public LatencyHistogram Latency { get; } = new(SendLatencyBuckets);

    public long Events => Interlocked.Read(ref _events);

    public long Readings => Interlocked.Read(ref _readings);

    public long Errors => Interlocked.Read(ref _errors);

    public long Retries => Interlocked.Read(ref _retries);

    public void Record(SendOutcome outcome, int readings)
    {
        Interlocked.Add(ref _retries, outcome.Retries);
        if (outcome.Status == SendStatus.Sent)
        {
            Interlocked.Increment(ref _events);
            Interlocked.Add(ref _readings, readings);
            Latency.Record(outcome.Latency);
        }
        else
        {
            Interlocked.Increment(ref _errors);
        }
    }
}
