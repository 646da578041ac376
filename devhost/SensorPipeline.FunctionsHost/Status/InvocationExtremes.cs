namespace SensorPipeline.FunctionsHost.Status;

/// <summary>The largest succeeded invocations of one function since devhost started, each figure its own maximum: the
/// request body the host posted, the events in one batch, and the time from posting the request to having sent its
/// outputs. What a bench reads to show the work per invocation (the handler's memory and <c>functionTimeout</c> are
/// sized for the largest), updated lock-free by every partition listener of the function.</summary>
internal sealed class InvocationExtremes
{
    private long _requestBytes;
    private long _events;
    private long _ticks;

    public void Record(long requestBytes, int events, TimeSpan duration)
    {
        Max(ref _requestBytes, requestBytes);
        Max(ref _events, events);
        Max(ref _ticks, duration.Ticks);
    }

    public LargestInvocations Snapshot() => new(
        Interlocked.Read(ref _requestBytes),
        Interlocked.Read(ref _events),
        Math.Round(TimeSpan.FromTicks(Interlocked.Read(ref _ticks)).TotalSeconds, 3));

    private static void Max(ref long target, long value)
    {
        var current = Interlocked.Read(ref target);
        while (value > current)
        {
            var seen = Interlocked.CompareExchange(ref target, value, current);
            if (seen == current)
            {
                return;
            }

            current = seen;
        }
    }
}

/// <summary>The largest succeeded invocations of a function (all 0 before the first): the largest request body in bytes,
/// the most events in one batch, and the longest invocation in seconds (request posted → outputs sent). Three separate
/// maxima, not necessarily of one invocation.</summary>
public sealed record LargestInvocations(long RequestBytes, long Events, double Seconds);
