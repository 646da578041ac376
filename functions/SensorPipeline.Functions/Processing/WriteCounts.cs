namespace SensorPipeline.Functions.Processing;

/// <summary>What one processor invocation stored.</summary>
/// <param name="Live">Readings written to <c>readings</c>.</param>
/// <param name="Archived">Stale readings written to <c>archive</c> (and not also live).</param>
/// <param name="DeviceStates">Device states handed to the pending states (one per device with a stored reading that may win), written within W.</param>
/// <param name="DeadLetters">Dead letters stored.</param>
/// <param name="RedundantStale">Stale copies of readings that were already live (a redelivery across the max age), removed from the archive.</param>
internal readonly record struct WriteCounts(int Live, int Archived, int DeviceStates, int DeadLetters, int RedundantStale);
