using System.Globalization;

namespace SensorPipeline.Core.Policies;

/// <summary>
/// The rule for a device's latest state: the reading with the higher device sequence wins; on equal
/// sequences the later observed-at wins. <see cref="VersionKey"/> turns that order into one string
/// whose ordinal order is the same, so a single Cosmos DB filter predicate
/// (<c>FROM c WHERE c.version &lt; @new</c>) can guard the write server-side.
/// </summary>
public static class NewerWins
{
    /// <summary>Positive when (a) is newer than (b), negative when older, 0 when the same.</summary>
    public static int Compare(ulong sequenceA, DateTimeOffset observedA, ulong sequenceB, DateTimeOffset observedB)
    {
        var bySequence = sequenceA.CompareTo(sequenceB);
        return bySequence != 0 ? bySequence : observedA.UtcTicks.CompareTo(observedB.UtcTicks);
    }

    /// <summary>
    /// A fixed-width key: 20-digit sequence, '.', 19-digit observed-at UTC ticks. Fixed width makes
    /// ordinal string order equal numeric order (a JSON number could not hold a uint64 exactly).
    /// </summary>
    public static string VersionKey(ulong sequence, DateTimeOffset observedAt) =>
        string.Create(CultureInfo.InvariantCulture, $"{sequence:D20}.{observedAt.UtcTicks:D19}");
}
