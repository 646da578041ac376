namespace SensorPipeline.Core.Policies;

/// <summary>
/// A reading is stale when more than <see cref="MaxAge"/> has passed since the ingestion hub enqueued
/// it — measured from the first hop, as in
/// “Performance tuning - Event streaming” (https://learn.microsoft.com/azure/architecture/performance/event-streaming),
/// so time spent queued anywhere in the chain counts.
/// Stale readings skip the live view and go to the archive; they are never dropped.
/// It also carries the processor's other judgement against the enqueued time: how far a device's clock may run ahead
/// of it before the reading may no longer become the device's state (<see cref="NewerWins.MayWin"/>).
/// </summary>
public sealed class StalenessPolicy
{
    /// <summary>5 minutes: the cut-off of "Performance tuning - Event streaming", which dropped later messages.</summary>
    public static readonly TimeSpan DefaultMaxAge = TimeSpan.FromMinutes(5);

    private readonly long _maxAgeMs;

    public StalenessPolicy(TimeSpan maxAge)
        : this(maxAge, NewerWins.DefaultMaxClockSkew)
    {
    }

    public StalenessPolicy(TimeSpan maxAge, TimeSpan maxClockSkew)
    {
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(maxAge, TimeSpan.Zero);
        ArgumentOutOfRangeException.ThrowIfLessThan(maxClockSkew, TimeSpan.Zero);
        MaxAge = maxAge;
        MaxClockSkew = maxClockSkew;
        _maxAgeMs = (long)maxAge.TotalMilliseconds;
    }

    public TimeSpan MaxAge { get; }

    /// <summary>How far a reading's observed-at may run ahead of its ingestion event's enqueued time and still win the device's state.</summary>
    public TimeSpan MaxClockSkew { get; }

    /// <summary>
    /// How many milliseconds past the max age the reading is, or null when it is fresh.
    /// A reading exactly at the max age is still fresh (the rule is "older than").
    /// </summary>
    public long? StaleBy(long enqueuedUnixMs, long nowUnixMs)
    {
        var age = nowUnixMs - enqueuedUnixMs;
        return age > _maxAgeMs ? age - _maxAgeMs : null;
    }

    /// <summary>Convenience over <see cref="StaleBy"/> with the clock.</summary>
    public bool IsStale(DateTimeOffset enqueued, TimeProvider clock)
    {
        ArgumentNullException.ThrowIfNull(clock);
        return StaleBy(enqueued.ToUnixTimeMilliseconds(), clock.GetUtcNow().ToUnixTimeMilliseconds()) is not null;
    }
}
