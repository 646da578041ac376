using System.Text.Json.Serialization;

namespace SensorPipeline.LoadGen.Ledger;

/// <summary>
/// What a load run acknowledged, for <c>loadgen verify</c>: per device the highest sequence resolved
/// (sequences are contiguous from 1, so that names the whole set) minus ranges that were never
/// acknowledged, and the SHA-256 of every injected bad event. Written as JSON (see <see cref="LedgerFile"/>).
/// </summary>
internal sealed class RunLedger
{
    /// <summary>The format version; bumped on an incompatible change.</summary>
    public int Version { get; set; } = 1;

    /// <summary>Where the events went (the messages URL).</summary>
    public string Target { get; set; } = "";

    public int Seed { get; set; }

    public DateTimeOffset StartedAt { get; set; }

    public DateTimeOffset UpdatedAt { get; set; }

    /// <summary>True once the run ended normally; false in progress snapshots and after an interruption.</summary>
    public bool Complete { get; set; }

    public LedgerCounts Counts { get; set; } = new();

    public List<LedgerDevice> Devices { get; set; } = [];

    public List<LedgerInjection> Injected { get; set; } = [];

    /// <summary>The backlog episodes the run made on purpose (<c>--pause-function</c>): readings enqueued in one, or in
    /// the max age before it, may be archived as stale; verify with <c>--max-age</c> counts any other stale reading.</summary>
    public List<LedgerPause> Pauses { get; set; } = [];
}

/// <summary>One backlog episode: the functions paused and when (loadgen's clock, which on one machine is devhost's).</summary>
/// <param name="PausedAt">Just before the first pause request was sent.</param>
/// <param name="ResumedAt">Just after the last resume request was answered.</param>
/// <param name="Functions">The functions paused.</param>
internal sealed record LedgerPause(DateTimeOffset PausedAt, DateTimeOffset ResumedAt, IReadOnlyList<string> Functions);

/// <summary>Event and reading counts of the run.</summary>
internal sealed class LedgerCounts
{
    public long EventsSent { get; set; }

    public long ReadingsSent { get; set; }

    /// <summary>Events rejected permanently or given up after retries (their readings are in the devices' <c>unsent</c>).</summary>
    public long EventsFailed { get; set; }

    public long ReadingsFailed { get; set; }

    /// <summary>Events whose fate is unknown because the run was interrupted mid-send (also in <c>unsent</c>).</summary>
    public long EventsUnconfirmed { get; set; }

    public long Retries { get; set; }

    public long DuplicateEventsSent { get; set; }

    public long DuplicateReadingsSent { get; set; }

    public long PoisonSent { get; set; }

    public long OversizeSent { get; set; }

    public long TruncatedSent { get; set; }

    public long OutOfRangeSent { get; set; }

    public long ForgedSent { get; set; }

    /// <summary>Malformed requests the hub refused with the expected 4xx.</summary>
    public long MalformedRefused { get; set; }

    /// <summary>Malformed requests the hub accepted or answered otherwise (a failure of the hub's checks).</summary>
    public long MalformedAccepted { get; set; }

    /// <summary>Seconds from the first send to the last answer.</summary>
    public double ElapsedSeconds { get; set; }

    /// <summary>CPU seconds loadgen itself used (all threads), to attribute a benchmark's CPU per reading.</summary>
    public double CpuSeconds { get; set; }
}

/// <summary>One device's sequences.</summary>
internal sealed class LedgerDevice
{
    public string Id { get; set; } = "";

    /// <summary>The kind's name in sensor-kinds.json (<c>weather</c>).</summary>
    public string Kind { get; set; } = "";

    /// <summary>Sequences 1..this were all resolved (sent, or listed in <see cref="Unsent"/>).</summary>
    public ulong HighestSequence { get; set; }

    /// <summary>Ranges within 1..<see cref="HighestSequence"/> that were not acknowledged (failed or unconfirmed).</summary>
    public List<SequenceRange> Unsent { get; set; } = [];
}

/// <summary>An inclusive range of sequences.</summary>
internal sealed record SequenceRange(ulong First, ulong Last);

/// <summary>One injected bad event.</summary>
internal sealed class LedgerInjection
{
    /// <summary><c>poison</c>, <c>oversize</c>, <c>truncated</c>, <c>out-of-range</c> or <c>forged</c>.</summary>
    public string Kind { get; set; } = "";

    /// <summary>Lowercase hex SHA-256 of the body; matched against a dead letter's <c>payloadBase64</c>.</summary>
    public string Sha256 { get; set; } = "";

    public int Bytes { get; set; }

    /// <summary>True when the hub answered 201 (only then must it appear in <c>deadletters</c>).</summary>
    public bool Acknowledged { get; set; }

    /// <summary>The final HTTP status (0: no response).</summary>
    public int Status { get; set; }
}

[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase, WriteIndented = true)]
[JsonSerializable(typeof(RunLedger))]
internal sealed partial class LedgerJsonContext : JsonSerializerContext;
