using System.Text.Json.Serialization;

namespace SensorPipeline.LoadGen.Verify;

/// <summary>The outcome of <c>loadgen verify</c>. Every acknowledged reading is exactly one of written, archived,
/// duplicated (in both containers) or missing.</summary>
internal sealed class Verdict
{
    /// <summary>Most ids listed per problem; the counts are always complete.</summary>
    public const int MaxListed = 50;

    /// <summary>Acknowledged readings the ledger expects (sequences 1..highest per device, minus unsent ranges).</summary>
    public long Sent { get; set; }

    /// <summary>Found in <c>readings</c> only.</summary>
    public long Written { get; set; }

    /// <summary>Found in <c>archive</c> only (stale).</summary>
    public long Archived { get; set; }

    /// <summary>Found in both containers.</summary>
    public long Duplicated { get; set; }

    /// <summary>Found in neither: lost.</summary>
    public long Missing { get; set; }

    /// <summary>Acknowledged poison/oversize events the ledger expects in <c>deadletters</c>.</summary>
    public int InjectedSent { get; set; }

    /// <summary>Of those, found in <c>deadletters</c> (payload SHA-256 matched).</summary>
    public int DeadLettered { get; set; }

    /// <summary>Devices checked against the <c>devices</c> container.</summary>
    public int Devices { get; set; }

    /// <summary>Devices whose <c>devices</c> document is missing or holds another sequence than the highest in <c>readings</c>.</summary>
    public int DeviceMismatches { get; set; }

    /// <summary>Dead letters in the container that match no injected event (readings rejected one by one, say).</summary>
    public int OtherDeadLetters { get; set; }

    /// <summary>Dead letters no injection explains that name one of this run's devices or carry its readings: good data
    /// of this run dead-lettered (a systemic fault mistaken for poison, say).</summary>
    public int UnexplainedDeadLetters { get; set; }

    /// <summary>Every dead letter in the container, this run's or not.</summary>
    public int DeadLettersTotal { get; set; }

    /// <summary>With <c>--max-age</c>: archived readings enqueued outside every backlog episode of the run and the max age
    /// before it — stale because the chain fell behind, not because the run paused it. Null when not checked.</summary>
    public long? StaleOutsideEpisodes { get; set; }

    /// <summary>Some of them, as <c>{device}:{sequence}</c>.</summary>
    public List<string> StaleOutsideEpisodeIds { get; set; } = [];

    /// <summary>With <c>--max-age</c>: the enqueue-time windows in which a stale reading is expected.</summary>
    public List<string> Episodes { get; set; } = [];

    public List<string> MissingIds { get; set; } = [];

    public List<string> DuplicatedIds { get; set; } = [];

    public List<string> DeviceProblems { get; set; } = [];

    /// <summary>SHA-256 of acknowledged injected events not found in <c>deadletters</c>.</summary>
    public List<string> MissingDeadLetters { get; set; } = [];

    /// <summary>Nothing lost, nothing doubled, every injection dead-lettered, every device's state current.</summary>
    public bool Passed => Missing == 0 && Duplicated == 0 && DeadLettered == InjectedSent && DeviceMismatches == 0;
}

[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase, WriteIndented = true)]
[JsonSerializable(typeof(Verdict))]
internal sealed partial class VerdictJsonContext : JsonSerializerContext;
