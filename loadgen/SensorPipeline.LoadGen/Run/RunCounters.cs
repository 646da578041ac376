using SensorPipeline.LoadGen.Sending;

namespace SensorPipeline.LoadGen.Run;

/// <summary>Live counters for the progress line, updated by concurrent sends without a lock.</summary>
internal sealed class RunCounters
{
    private long _events;
    private long _readings;
    private long _errors;
    private long _retries;

    public LatencyHistogram Latency { get; } = new();

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
