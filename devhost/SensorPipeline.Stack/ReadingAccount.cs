using System.Text.Json;

namespace SensorPipeline.Stack;

/// <summary>
/// Where what loadgen sent ended, from <c>loadgen verify --json</c>'s verdict (<see cref="Demo.VerifyAsync"/>): each
/// acknowledged reading live (in <c>readings</c>), archived (stale, in <c>archive</c>), in both (duplicated), or in
/// neither (missing); each acknowledged injected event (poison, oversize) dead-lettered or not. Lost is what loadgen sent
/// and did not land: readings in neither container, and injected events not in <c>deadletters</c>.
/// </summary>
public sealed record ReadingAccount(long Sent, long Live, long Archived, long Duplicated, long Missing, long InjectedSent, long DeadLettered)
{
    /// <summary>Reads the counts from a verdict; throws naming the first count it lacks (verify failed before it counted).</summary>
    public static ReadingAccount FromVerdict(JsonElement verdict) => new(
        Count(verdict, "sent"), Count(verdict, "written"), Count(verdict, "archived"), Count(verdict, "duplicated"), Count(verdict, "missing"),
        Count(verdict, "injectedSent"), Count(verdict, "deadLettered"));

    /// <summary>Readings that landed: live, archived, or both (a duplicated reading counted once).</summary>
    public long Landed => Live + Archived + Duplicated;

    /// <summary>What loadgen sent against what landed: readings in neither container plus injected events in no dead
    /// letter. 0 is the target of every bench and test that accounts for readings.</summary>
    public long Lost => (Sent - Landed) + (InjectedSent - DeadLettered);

    /// <summary>verify's own missing count agrees with sent − landed: every reading is exactly one of live, archived,
    /// duplicated or missing. False means the verdict contradicts itself and its counts are not to be trusted.</summary>
    public bool Balanced => Sent - Landed == Missing && DeadLettered <= InjectedSent;

    private static long Count(JsonElement verdict, string name) =>
        verdict.ValueKind == JsonValueKind.Object && verdict.TryGetProperty(name, out var value) && value.ValueKind == JsonValueKind.Number
            ? value.GetInt64()
            : throw new InvalidOperationException($"loadgen verify's verdict has no count '{name}': {(verdict.ValueKind == JsonValueKind.Undefined ? "no verdict" : verdict.GetRawText())}");
}
