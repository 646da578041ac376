using System.Globalization;
using SensorPipeline.LoadGen.Ledger;

namespace SensorPipeline.LoadGen.Verify;

/// <summary>
/// When a reading may rightly be archived as stale in a run: enqueued during a backlog episode the run made on purpose,
/// or within the max age before it (those were still queued, or still young, when the functions paused). A stale
/// reading enqueued anywhere else means the chain itself fell more than the max age behind — the figure a demo must
/// not hide inside its "archived" count.
/// </summary>
internal sealed class StaleWindows
{
    private readonly (DateTimeOffset From, DateTimeOffset To)[] _windows;

    public StaleWindows(IReadOnlyList<LedgerPause> pauses, TimeSpan maxAge)
    {
        ArgumentNullException.ThrowIfNull(pauses);
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(maxAge, TimeSpan.Zero);
        _windows = [.. pauses.Select(p => (p.PausedAt - maxAge, p.ResumedAt))];
    }

    /// <summary>True when a reading enqueued at <paramref name="enqueuedAt"/> may be stale because of an episode.</summary>
    public bool Explains(DateTimeOffset enqueuedAt)
    {
        foreach (var (from, to) in _windows)
        {
            if (enqueuedAt >= from && enqueuedAt <= to)
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>The windows as text, for the verdict.</summary>
    public List<string> Describe() =>
        [.. _windows.Select(w => string.Create(CultureInfo.InvariantCulture, $"{w.From:O} … {w.To:O}"))];
}
