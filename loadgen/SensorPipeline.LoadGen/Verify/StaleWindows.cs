using System.Globalization;
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

    /// <param name="episodes">Each backlog episode: from when processing stopped (a pause, a kill) until it resumed.</param>
    /// <param name="maxAge">The pipeline's max age.</param>
    public StaleWindows(IReadOnlyList<(DateTimeOffset Stopped, DateTimeOffset Resumed)> episodes, TimeSpan maxAge)
    {
        ArgumentNullException.ThrowIfNull(episodes);
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(maxAge, TimeSpan.Zero);
        _windows = [.. episodes.Select(e => (e.Stopped - maxAge, e.Resumed))];
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
