namespace SensorPipeline.Core.Policies;

/// <summary>
/// The one owner of a reading's age: the time since the ingestion hub enqueued it. A reading is stale when its age is
/// more than <see cref="MaxAge"/> — measured from the first hop, as in
/// “Performance tuning - Event streaming” (https://learn.microsoft.com/azure/architecture/performance/event-streaming),
/// so time spent queued anywhere in the chain counts.
/// Stale readings skip the live view and go to the archive; they are never dropped. Every other judgement of age (the
/// live/archive reconciliation's window around the max age) asks this policy rather than doing the arithmetic again.
/// </summary>
public sealed class StalenessPolicy
{
    /// <summary>5 minutes: the cut-off of "Performance tuning - Event streaming", which dropped later messages.</summary>
    public static readonly TimeSpan DefaultMaxAge = TimeSpan.FromMinutes(5);

    private readonly long _maxAgeMs;

    public StalenessPolicy(TimeSpan maxAge)
    {
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(maxAge, TimeSpan.Zero);
        MaxAge = maxAge;
        _maxAgeMs = (long)maxAge.TotalMilliseconds;
    }

    public TimeSpan MaxAge { get; }

    /// <summary>
    /// How many milliseconds past the max age the reading is, or null when it is fresh.
    /// A reading exactly at the max age is still fresh (the rule is "older than").
    /// </summary>
    public long? StaleBy(long enqueuedUnixMs, long nowUnixMs)
    {
        var age = nowUnixMs - enqueuedUnixMs;
        return age > _maxAgeMs ? age - _maxAgeMs : null;
    }

    /// <summary>True when the reading is older than the max age less <paramref name="window"/>: fresh now, but a
    /// redelivery of it that much later could be stale (the live/archive reconciliation's candidates).</summary>
    public bool IsWithinOfMaxAge(long enqueuedUnixMs, long nowUnixMs, TimeSpan window) =>
        nowUnixMs - enqueuedUnixMs > _maxAgeMs - (long)window.TotalMilliseconds;

    /// <summary>Convenience over <see cref="StaleBy"/> with the clock.</summary>
    public bool IsStale(DateTimeOffset enqueued, TimeProvider clock)
    {
        ArgumentNullException.ThrowIfNull(clock);
        return StaleBy(enqueued.ToUnixTimeMilliseconds(), clock.GetUtcNow().ToUnixTimeMilliseconds()) is not null;
    }
}
