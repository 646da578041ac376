using System.Globalization;

namespace SensorPipeline.Core.DeviceStates;

/// <summary>
/// The rule for a device's latest state: the later observed-at wins; on equal times the higher device sequence wins.
/// Why time first: a device whose sequence counter restarts (a reboot, a replaced board) sends sequence 1 again,
/// and with sequence first its state would freeze at the old high number; its clock keeps moving forward. The
/// clock is the device's own, so a reading dated more than the allowed clock skew (<see cref="DefaultMaxClockSkew"/>
/// unless configured) after its ingestion event was enqueued (the service's clock) is stored with the others but never becomes the device's state: one such reading
/// would otherwise pin the state until real time caught up with it (<see cref="MayWin"/>).
/// <see cref="VersionKey"/> turns the order into one string whose ordinal order is the same, so a single Cosmos DB
/// filter predicate (<c>FROM c WHERE c.version &lt; @new</c>) can guard the write server-side.
/// </summary>
public static class NewerWins
{
    /// <summary>How far a reading's observed-at may run ahead of its ingestion event's enqueued time and still win, unless configured: 5 minutes.</summary>
    public static readonly TimeSpan DefaultMaxClockSkew = TimeSpan.FromMinutes(5);

    /// <summary>Positive when (a) is newer than (b), negative when older, 0 when the same.</summary>
    public static int Compare(ulong sequenceA, DateTimeOffset observedA, ulong sequenceB, DateTimeOffset observedB)
    {
        var byTime = observedA.UtcTicks.CompareTo(observedB.UtcTicks);
        return byTime != 0 ? byTime : sequenceA.CompareTo(sequenceB);
    }

    /// <summary>False for a reading dated more than <paramref name="maxClockSkew"/> after its event was enqueued.</summary>
    public static bool MayWin(DateTimeOffset observedAt, long enqueuedTimeUnixMs, TimeSpan maxClockSkew) =>
        observedAt.ToUnixTimeMilliseconds() - enqueuedTimeUnixMs <= (long)maxClockSkew.TotalMilliseconds;

    /// <summary>
    /// A fixed-width key: 19-digit observed-at UTC ticks, '.', 20-digit sequence. Fixed width makes ordinal string order
    /// equal the order of <see cref="Compare"/> (a JSON number could not hold a uint64 exactly).
    /// </summary>
    public static string VersionKey(ulong sequence, DateTimeOffset observedAt) =>
        string.Create(CultureInfo.InvariantCulture, $"{observedAt.UtcTicks:D19}.{sequence:D20}");
}
