namespace SensorPipeline.Stack.Chaos;

/// <summary>One fault's line in the chaos table.</summary>
/// <param name="Fault">The fault's name.</param>
/// <param name="Injected">Times it was injected (for faults carried by the load: bad events or requests sent;
/// <see cref="WholePhase"/> when every event of the phase carried it).</param>
/// <param name="Acknowledged">Readings the hub acknowledged (201) in the phase.</param>
/// <param name="Written">Found in <c>readings</c>.</param>
/// <param name="Archived">Found in <c>archive</c> (stale).</param>
/// <param name="DeadLetteredExpected">Injected bad events found in <c>deadletters</c>.</param>
/// <param name="DeadLettersExpected">Injected bad events acknowledged, so expected there.</param>
/// <param name="DeadLetteredUnexpected">Dead letters the phase produced that no injection explains (good data dead-lettered).</param>
/// <param name="Missing">Acknowledged readings found nowhere: must be 0.</param>
/// <param name="Duplicated">Readings found in both containers: must be 0.</param>
/// <param name="DuplicatesAbsorbed">Readings sent twice on purpose (acknowledged re-sends) that still ended as one document.</param>
/// <param name="RetriedInvocations">Invocations the Functions host retried (each one's readings written again, idempotently).</param>
/// <param name="DeviceMismatches">Devices whose latest state is not their highest live reading.</param>
/// <param name="LongestStall">Longest time a partition had events to read and made no progress.</param>
/// <param name="Recovery">Longest time from a fault's end until the backlog was back to its level before the fault.</param>
/// <param name="Problems">Why the row failed, if it did.</param>
public sealed record ChaosRow(
    string Fault,
    int Injected,
    long Acknowledged,
    long Written,
    long Archived,
    int DeadLetteredExpected,
    int DeadLettersExpected,
    int DeadLetteredUnexpected,
    long Missing,
    long Duplicated,
    long DuplicatesAbsorbed,
    long RetriedInvocations,
    int DeviceMismatches,
    TimeSpan LongestStall,
    TimeSpan? Recovery,
    IReadOnlyList<string> Problems)
{
    /// <summary><see cref="Injected"/> of a fault every event of the phase carried (skewed clocks).</summary>
    public const int WholePhase = -1;

    public bool Passed => Problems.Count == 0;
}
