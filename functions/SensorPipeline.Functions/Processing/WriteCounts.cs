namespace SensorPipeline.Functions.Processing;

/// <summary>What one processor invocation stored.</summary>
/// <param name="Live">Readings written to <c>readings</c>.</param>
/// <param name="Archived">Stale readings written to <c>archive</c> (and not also live).</param>
/// <param name="DevicesUpdated">Device states moved forward.</param>
/// <param name="DevicesSuperseded">Device writes a newer stored state won.</param>
/// <param name="DeadLetters">Dead letters stored.</param>
/// <param name="RedundantStale">Stale copies of readings that were already live (a redelivery across the max age), removed from the archive.</param>
internal readonly record struct WriteCounts(int Live, int Archived, int DevicesUpdated, int DevicesSuperseded, int DeadLetters, int RedundantStale);
