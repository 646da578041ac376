namespace SensorPipeline.FunctionsHost.Status;

/// <summary>The largest succeeded invocations of one function since devhost started, each figure its own maximum: the
/// request body the host posted, the events in one batch, and the time from posting the request to having sent its
/// outputs. What a bench reads to show the work per invocation (the handler's memory and <c>functionTimeout</c> are
/// sized for the largest), updated by every partition listener of the function.</summary>
internal sealed class InvocationExtremes
{
    // One update per invocation: a lock costs nothing next to the invocation itself.
    private readonly Lock _lock = new();
    private LargestInvocations _largest = new(0, 0, 0);

    public void Record(long requestBytes, int events, TimeSpan duration)
    {
        lock (_lock)
        {
            _largest = new LargestInvocations(
                Math.Max(_largest.RequestBytes, requestBytes),
                Math.Max(_largest.Events, events),
                Math.Max(_largest.Seconds, Math.Round(duration.TotalSeconds, 3)));
        }
    }

    public LargestInvocations Snapshot()
    {
        lock (_lock)
        {
            return _largest;
        }
    }
}

/// <summary>The largest succeeded invocations of a function (all 0 before the first): the largest request body in bytes,
/// the most events in one batch, and the longest invocation in seconds (request posted → outputs sent). Three separate
/// maxima, not necessarily of one invocation.</summary>
public sealed record LargestInvocations(long RequestBytes, long Events, double Seconds);
