using SensorPipeline.Core.Readings;

namespace SensorPipeline.Functions.DeviceStates;

/// <summary>What a device state the store refuses for good is dead-lettered as: its reading's bytes, in the place the
/// reading had in its envelope — the same for every redelivery, so the letter keeps one id.</summary>
internal sealed record StateRefusal(string Stage, SourcePosition Envelope, int EnvelopeIndex, byte[] Reading, string ReadingId);

/// <summary>A device state waiting in memory for its write: the newest by version key of the readings stored for it.</summary>
/// <param name="DeviceId">The device.</param>
/// <param name="Version">Its version key (ordinal order = newer-wins order).</param>
/// <param name="Document">The device document to write.</param>
/// <param name="Refusal">What a store refusal of the document dead-letters: the reading's bytes and its place; null for a
/// state rebuilt from <c>readings</c> (its reading is stored; a refusal keeps it pending and is logged).</param>
internal sealed record PendingState(string DeviceId, string Version, byte[] Document, StateRefusal? Refusal);

/// <summary>A state taken for a write, with the instant its earliest uncovered reading was handed over (stored by then):
/// the write's lag counts from it.</summary>
internal readonly record struct DueState(PendingState State, long WaitingSinceUnixMs);

/// <summary>
/// The device states this instance owes the store, held in memory and coalesced newer-wins per device, so a device
/// that sends every second costs one state write per <c>Pipeline__DeviceStateLag</c> (W), not one per reading.
/// <para>
/// It also answers the question the durable mark needs (<see cref="StoredBefore"/>): before which instant has every
/// reading this instance stored its state durable? An invocation opens a <see cref="Scope"/> before it writes its
/// readings and closes it after handing their states over, and each pending device remembers when the first reading
/// not yet covered by a durable write began storing — so the answer is the earliest of now, the open scopes and the
/// pending devices.
/// </para>
/// Thread-safe: invocations add while the flusher takes and finishes.
/// </summary>
internal sealed class PendingDeviceStates(TimeProvider clock)
{
    private readonly Lock _lock = new();
    private readonly Dictionary<string, Entry> _entries = new(StringComparer.Ordinal);
    private readonly Dictionary<long, long> _openScopes = [];
    private long _nextScope;

    /// <summary>Device states held, written or not yet.</summary>
    public int Count
    {
        get
        {
            lock (_lock)
            {
                return _entries.Count;
            }
        }
    }

    /// <summary>Opens an invocation's scope, stamped now: close it once its states are added (or it failed).</summary>
    public Scope Open()
    {
        var now = clock.GetUtcNow().ToUnixTimeMilliseconds();
        lock (_lock)
        {
            var id = _nextScope++;
            _openScopes[id] = now;
            return new Scope(this, id, now);
        }
    }

    /// <summary>
    /// Adds the states of readings stored by the invocation that opened <paramref name="scope"/>: each replaces its
    /// device's pending state only if newer (an older or equal one is already covered by the newer state).
    /// </summary>
    public void Add(Scope scope, IEnumerable<PendingState> states)
    {
        ArgumentNullException.ThrowIfNull(scope);
        ArgumentNullException.ThrowIfNull(states);
        var since = new Since(scope.StartedUnixMs, clock.GetUtcNow().ToUnixTimeMilliseconds());
        lock (_lock)
        {
            foreach (var state in states)
            {
                if (!_entries.TryGetValue(state.DeviceId, out var entry))
                {
                    _entries[state.DeviceId] = new Entry(state, since);
                    continue;
                }

                entry.Merge(state, since);
            }
        }
    }

    /// <summary>
    /// Takes the states due for a write — the first reading they cover was handed over at least <paramref name="lag"/> ago,
    /// or every one when <paramref name="all"/> — and marks them in flight. Each must be given back through
    /// <see cref="Finish"/>.
    /// </summary>
    public IReadOnlyList<DueState> TakeDue(TimeSpan lag, bool all)
    {
        var dueBefore = clock.GetUtcNow().ToUnixTimeMilliseconds() - (long)lag.TotalMilliseconds;
        var due = new List<DueState>();
        lock (_lock)
        {
            foreach (var entry in _entries.Values)
            {
                if (entry.InFlight is null && (all || entry.Uncovered.HandedUnixMs <= dueBefore))
                {
                    entry.InFlight = entry.State;
                    due.Add(new DueState(entry.State, entry.Uncovered.HandedUnixMs));
                }
            }
        }

        return due;
    }

    /// <summary>
    /// Gives back a state taken by <see cref="TakeDue"/>. <paramref name="durable"/>: the store holds it or a newer one
    /// (or it was dead-lettered), so the device is done unless a newer state arrived meanwhile; otherwise it stays
    /// pending as it was and is taken again.
    /// </summary>
    public void Finish(PendingState state, bool durable)
    {
        ArgumentNullException.ThrowIfNull(state);
        lock (_lock)
        {
            if (!_entries.TryGetValue(state.DeviceId, out var entry) || !ReferenceEquals(entry.InFlight, state))
            {
                return;
            }

            if (durable && ReferenceEquals(entry.State, state))
            {
                _entries.Remove(state.DeviceId);
                return;
            }

            entry.Landed(durable);
        }
    }

    /// <summary>
    /// Every reading this instance began storing before the instant returned (Unix ms, this clock) has its device state
    /// durable — or is in a scope still open, or pending here.
    /// </summary>
    public long StoredBefore()
    {
        var earliest = clock.GetUtcNow().ToUnixTimeMilliseconds();
        lock (_lock)
        {
            foreach (var started in _openScopes.Values)
            {
                earliest = Math.Min(earliest, started);
            }

            foreach (var entry in _entries.Values)
            {
                earliest = Math.Min(earliest, entry.Uncovered.StartedUnixMs);
            }
        }

        return earliest;
    }

    private void Close(long id)
    {
        lock (_lock)
        {
            _openScopes.Remove(id);
        }
    }

    /// <summary>An invocation's stretch from before its readings are written until its states are handed over.</summary>
    internal sealed class Scope(PendingDeviceStates owner, long id, long startedUnixMs) : IDisposable
    {
        /// <summary>When it opened (Unix ms): no reading it stores began storing earlier.</summary>
        public long StartedUnixMs { get; } = startedUnixMs;

        public void Dispose() => owner.Close(id);
    }

    /// <summary>When the readings of an invocation began storing (its scope opened) and were handed over (all stored).</summary>
    private readonly record struct Since(long StartedUnixMs, long HandedUnixMs)
    {
        public Since Earliest(Since other) => new(Math.Min(StartedUnixMs, other.StartedUnixMs), Math.Min(HandedUnixMs, other.HandedUnixMs));
    }

    /// <summary>One device: its newest state, the state being written, and since when readings await a durable state.</summary>
    private sealed class Entry(PendingState state, Since uncovered)
    {
        private Since? _arrivedDuringWrite;

        public PendingState State { get; private set; } = state;

        /// <summary>The earliest reading not yet covered by a durable state: when it began storing, when it was handed over.</summary>
        public Since Uncovered { get; private set; } = uncovered;

        public PendingState? InFlight { get; set; }

        public void Merge(PendingState newer, Since since)
        {
            if (string.CompareOrdinal(newer.Version, State.Version) > 0)
            {
                State = newer;
            }

            // Even an older reading moves the instants back: conservative, the recovery then reads a little more.
            if (InFlight is null)
            {
                Uncovered = Uncovered.Earliest(since);
            }
            else
            {
                _arrivedDuringWrite = _arrivedDuringWrite?.Earliest(since) ?? since;
            }
        }

        /// <summary>The write in flight ended while a newer state arrived (durable), or failed (not durable).</summary>
        public void Landed(bool durable)
        {
            if (_arrivedDuringWrite is { } arrived)
            {
                Uncovered = durable ? arrived : Uncovered.Earliest(arrived);
            }

            _arrivedDuringWrite = null;
            InFlight = null;
        }
    }
}
