namespace SensorPipeline.LoadGen.Sending;

/// <summary>
/// Paces events against absolute time: event <c>i</c> is due at <c>start + i · interval</c>, computed from
/// <c>i</c> each time rather than by adding intervals, so late sends, timer slack and rounding never
/// accumulate into drift — a late event is followed by on-time ones, never by a permanent lag.
/// </summary>
internal sealed class Pacer
{
    private readonly TimeProvider _time;
    private readonly long _startTimestamp;
    private readonly double _intervalTicks;

    /// <param name="time">The clock.</param>
    /// <param name="readingsPerSecond">Target rate; null or 0 = flat out (every event due at once).</param>
    /// <param name="readingsPerEvent">Readings in each event.</param>
    public Pacer(TimeProvider time, double? readingsPerSecond, int readingsPerEvent)
    {
        _time = time ?? throw new ArgumentNullException(nameof(time));
        ArgumentOutOfRangeException.ThrowIfLessThan(readingsPerEvent, 1);
        _startTimestamp = time.GetTimestamp();
        _intervalTicks = readingsPerSecond is > 0 ? readingsPerEvent * (double)TimeSpan.TicksPerSecond / readingsPerSecond.Value : 0;
    }

    /// <summary>Time between events; zero when flat out.</summary>
    public TimeSpan Interval => TimeSpan.FromTicks((long)_intervalTicks);

    /// <summary>When event <paramref name="index"/> is due, as an offset from the start.</summary>
    public TimeSpan DueOffset(long index) => TimeSpan.FromTicks((long)Math.Round(index * _intervalTicks));

    /// <summary>How long to wait now before sending event <paramref name="index"/>; zero when it is due or overdue.</summary>
    public TimeSpan Delay(long index)
    {
        var remaining = DueOffset(index) - _time.GetElapsedTime(_startTimestamp);
        return remaining > TimeSpan.Zero ? remaining : TimeSpan.Zero;
    }

    /// <summary>Time since the pacer started.</summary>
    public TimeSpan Elapsed => _time.GetElapsedTime(_startTimestamp);

    public async ValueTask WaitAsync(long index, CancellationToken cancellationToken)
    {
        var delay = Delay(index);
        if (delay > TimeSpan.Zero)
        {
            await Task.Delay(delay, _time, cancellationToken);
        }
    }
}
