using System.Collections.Concurrent;
using System.Globalization;

namespace SensorPipeline.LoadGen.Verify;

/// <summary>Each expected reading counted by where its copies are; devices checked concurrently add to it.</summary>
internal sealed class ReadingTally
{
    private readonly ConcurrentQueue<string> _missingIds = new();
    private readonly ConcurrentQueue<string> _duplicatedIds = new();
    private readonly ConcurrentQueue<string> _staleOutsideIds = new();
    private long _written;
    private long _archived;
    private long _duplicated;
    private long _missing;
    private long _staleOutside;

    /// <param name="label">The reading, whatever id it is stored under (device:sequence).</param>
    /// <param name="liveCopies">Its documents in readings.</param>
    /// <param name="staleCopies">Its documents in archive.</param>
    /// <param name="outsideEpisodes">Archived, yet no backlog episode explains its going stale.</param>
    public void Add(string label, int liveCopies, int staleCopies, bool outsideEpisodes)
    {
        switch (liveCopies + staleCopies)
        {
            case 0:
                Interlocked.Increment(ref _missing);
                LedgerVerifier.Note(_missingIds, label);
                break;
            case 1 when liveCopies == 1:
                Interlocked.Increment(ref _written);
                break;
            case 1:
                Interlocked.Increment(ref _archived);
                if (outsideEpisodes)
                {
                    Interlocked.Increment(ref _staleOutside);
                    LedgerVerifier.Note(_staleOutsideIds, label);
                }

                break;
            default:
                Interlocked.Increment(ref _duplicated);
                LedgerVerifier.Note(_duplicatedIds, label);
                break;
        }
    }

    /// <summary>Sets the verdict's reading counts; the stale check's only when it was made.</summary>
    public void WriteTo(Verdict verdict, StaleWindows? staleWindows)
    {
        (verdict.Written, verdict.Archived, verdict.Duplicated, verdict.Missing) = (_written, _archived, _duplicated, _missing);
        verdict.MissingIds = ByDeviceAndSequence(_missingIds);
        verdict.DuplicatedIds = ByDeviceAndSequence(_duplicatedIds);
        if (staleWindows is not null)
        {
            verdict.StaleOutsideEpisodes = _staleOutside;
            verdict.StaleOutsideEpisodeIds = ByDeviceAndSequence(_staleOutsideIds);
            verdict.Episodes = staleWindows.Describe();
        }
    }

    /// <summary>Reading ids in device, then numeric sequence order (concurrent checks note them in any order).</summary>
    private static List<string> ByDeviceAndSequence(IEnumerable<string> ids) =>
        [.. ids.OrderBy(id => id[..id.LastIndexOf(':')], StringComparer.Ordinal)
            .ThenBy(id => ulong.Parse(id.AsSpan(id.LastIndexOf(':') + 1), CultureInfo.InvariantCulture))];
}
