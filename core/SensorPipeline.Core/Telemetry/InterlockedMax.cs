namespace SensorPipeline.Core.Telemetry;

/// <summary>A running maximum many threads raise at once, without a lock.</summary>
public static class InterlockedMax
{
    /// <summary>Raises <paramref name="target"/> to <paramref name="value"/> when it is larger; a lower value changes
    /// nothing. Retries only while another thread moved the target in between.</summary>
    public static void Raise(ref long target, long value)
    {
        var seen = Interlocked.Read(ref target);
        while (value > seen)
        {
            var previous = Interlocked.CompareExchange(ref target, value, seen);
            if (previous == seen)
            {
                return;
            }

            seen = previous;
        }
    }
}
