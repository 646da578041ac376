using System.Buffers;
using System.Text.Json;
using SensorPipeline.Core.DeadLetters;
using SensorPipeline.Core.DeviceStates;
using SensorPipeline.Core.GeoJson;
using SensorPipeline.Core.Policies;
using SensorPipeline.Core.Readings;
using SensorPipeline.Core.Splitting;
using SensorKind = SensorPipeline.Protos.SensorKind;

namespace SensorPipeline.Core.Processing;

/// <summary>
/// A processor's pure core: decodes forward envelopes, dead-letters what cannot be used, sorts each
/// reading into live or archive (stale) and renders its GeoJSON document, and coalesces the newest
/// fresh reading per device for the guarded <c>devices</c> write. Each stale reading that may win also gets a device
/// state rendered (<see cref="ProcessResult.StaleStates"/>): it becomes a candidate only if the handler finds the reading
/// already live (<see cref="ProcessResult.DeviceWrites"/>). Every reading in is accounted for:
/// live + archive + reading-level dead letters = <see cref="ProcessResult.ReadingsReceived"/>.
/// Not thread-safe (reuses its buffers); one per concurrent invocation.
/// </summary>
public sealed class EnvelopeProcessor : IDisposable
{
    private readonly SensorKind _kind;
    private readonly string _kindName;
    private readonly SensorKindCatalog _kinds;
    private readonly StalenessPolicy _staleness;
    private readonly TimeSpan _maxClockSkew;
    private readonly DeviceIdCache _deviceIds;
    private readonly bool _renderStaleStates;
    private readonly ArrayBufferWriter<byte> _buffer = new(256 * 1024);
    private readonly Utf8JsonWriter _writer;
    private readonly List<SourcePosition> _sources = [];
    private readonly Dictionary<string, int> _latestIndex = new(StringComparer.Ordinal);

    /// <param name="kind">The kind this processor accepts (one of <paramref name="kinds"/>).</param>
    /// <param name="stage">The stage name stored in dead letters (e.g. <c>weather-processor</c>).</param>
    /// <param name="staleness">The staleness rule.</param>
    /// <param name="deviceIds">Optional shared-per-instance string cache.</param>
    /// <param name="maxClockSkew">How far a reading's observed-at may run ahead of its ingestion event's enqueued time and
    /// still become the device's state (<see cref="NewerWins.MayWin"/>); <see cref="NewerWins.DefaultMaxClockSkew"/> when null.</param>
    /// <param name="renderStaleStates">Whether a stale reading that may win gets its device state rendered (default true).
    /// Only a handler that checks stale readings against the live view can use one; with no such check (a zero
    /// redelivery window) every rendered state would be thrown away.</param>
    /// <param name="kinds">The kinds envelopes and readings are decoded with; <see cref="SensorKindCatalog.Default"/> when null.</param>
    public EnvelopeProcessor(SensorKind kind, string stage, StalenessPolicy staleness, DeviceIdCache? deviceIds = null, bool renderStaleStates = true,
        TimeSpan? maxClockSkew = null, SensorKindCatalog? kinds = null)
    {
        _kinds = kinds ?? SensorKindCatalog.Default;
        _kindName = _kinds.Get(kind).Name; // throws for a kind the pipeline does not route
        _kind = kind;
        Stage = stage ?? throw new ArgumentNullException(nameof(stage));
        _staleness = staleness ?? throw new ArgumentNullException(nameof(staleness));
        _maxClockSkew = maxClockSkew ?? NewerWins.DefaultMaxClockSkew;
        ArgumentOutOfRangeException.ThrowIfLessThan(_maxClockSkew, TimeSpan.Zero, nameof(maxClockSkew));
        _deviceIds = deviceIds ?? new DeviceIdCache();
        _renderStaleStates = renderStaleStates;
        // SkipValidation: the writers are correct by construction (tests parse every shape back).
        _writer = new Utf8JsonWriter(_buffer, new JsonWriterOptions { SkipValidation = true });
    }

    public string Stage { get; }

    public void Dispose() => _writer.Dispose();

    /// <summary>Processes one invocation's envelopes; <paramref name="nowUnixMs"/> decides staleness.</summary>
    public ProcessResult Process(IReadOnlyList<InputEvent> envelopes, long nowUnixMs)
    {
        ArgumentNullException.ThrowIfNull(envelopes);
        _buffer.ResetWrittenCount();
        _latestIndex.Clear();
        var batch = new Accumulator();
        for (var e = 0; e < envelopes.Count; e++)
        {
            var envelope = envelopes[e];
            if (TryOpen(envelope, batch, out var body, out var count))
            {
                batch.Received += count;
                ProcessReadings(envelope, e, body, nowUnixMs, batch);
            }
        }

        return new ProcessResult(_buffer.WrittenMemory, envelopes, batch.Pending, batch.Latest, batch.StaleStates, batch.DeadLetters,
            batch.Received, batch.Stale, batch.Oldest == long.MaxValue ? 0 : batch.Oldest);
    }

    /// <summary>Reads an envelope's header; an envelope that cannot be used, or that carries another kind (it is on the
    /// wrong hub), is dead-lettered whole for a human, and false is returned. The event body is the
    /// <c>ForwardEnvelope</c>'s protobuf bytes with no marker, so garbage is told from an envelope by decoding it:
    /// a body whose framing does not parse, that names no kind the pipeline routes, that holds no reading or a source
    /// no splitter writes is dead-lettered as undecodable (or invalid source) by <see cref="EnvelopeReader.TryReadHeader"/>;
    /// what passes and still holds garbage fails per reading (decode, then validation) further on.</summary>
    private bool TryOpen(in InputEvent envelope, Accumulator batch, out ReadOnlySpan<byte> body, out int count)
    {
        body = envelope.Body.Span;
        var reason = EnvelopeReader.TryReadHeader(body, _sources, out var kind, out _, out count, _kinds);
        if (reason == DeadLetterReason.None && kind != _kind)
        {
            reason = DeadLetterReason.PayloadMismatch;
        }

        if (reason == DeadLetterReason.None)
        {
            return true;
        }

        batch.DeadLetters.Add(new DeadLetter(Stage, reason, envelope.Position, null, null, envelope.Body));
        return false;
    }

    /// <summary>Every reading of one opened envelope: decoded, validated, rendered as a live or archived document.</summary>
    private void ProcessReadings(in InputEvent envelope, int envelopeIndex, ReadOnlySpan<byte> body, long nowUnixMs, Accumulator batch)
    {
        var position = 0;
        foreach (var entry in EnvelopeReader.EnumerateReadings(body))
        {
            if (TryReadValid(entry, envelope, position, batch, out var reading, out var sourceIndex))
            {
                Render(reading, new ReadingSource(envelopeIndex, position), _sources[sourceIndex], nowUnixMs, batch);
            }

            position++;
        }
    }

    /// <summary>Decodes and validates one forwarded reading; one that cannot be used is dead-lettered with its reason.</summary>
    private bool TryReadValid(ReadOnlySpan<byte> entry, in InputEvent envelope, int position, Accumulator batch, out ReadingView reading, out int sourceIndex)
    {
        reading = default;
        if (!EnvelopeReader.TryReadForwardedReading(entry, _sources.Count, out var raw, out sourceIndex)
            || !ReadingDecoder.TryDecode(raw, _kinds, out reading))
        {
            batch.DeadLetters.Add(new DeadLetter(Stage, DeadLetterReason.Undecodable, envelope.Position, position, null, entry.ToArray()));
            return false;
        }

        // The splitter validated already; checking again costs little and protects against other producers.
        var reason = ReadingValidator.Validate(reading);
        if (reason == DeadLetterReason.None && reading.Kind != _kind)
        {
            reason = DeadLetterReason.PayloadMismatch;
        }

        if (reason == DeadLetterReason.None)
        {
            return true;
        }

        batch.DeadLetters.Add(new DeadLetter(Stage, reason, envelope.Position, position, null, raw.ToArray()));
        return false;
    }

    /// <summary>Renders a valid reading's GeoJSON document, live or archived by staleness, and its device state.</summary>
    private void Render(in ReadingView reading, ReadingSource from, in SourcePosition source, long nowUnixMs, Accumulator batch)
    {
        batch.Oldest = Math.Min(batch.Oldest, source.EnqueuedTimeUnixMs);
        var staleBy = _staleness.StaleBy(source.EnqueuedTimeUnixMs, nowUnixMs);
        var deviceId = _deviceIds.Get(reading.DeviceIdUtf8);
        var id = DocumentIds.ReadingId(deviceId, reading.Sequence, reading.ObservedAt);
        // Where the reading is, not a copy of its bytes: only a store refusal needs them (ProcessResult.ReadingBytes).
        var offset = _buffer.WrittenCount;
        _writer.Reset(_buffer);
        GeoJsonFeatureWriter.Write(_writer, reading, source, staleBy);
        _writer.Flush();
        batch.Pending.Add(new PendingDocument(staleBy is null ? DocumentTarget.Live : DocumentTarget.Archive, deviceId, id,
            offset, _buffer.WrittenCount - offset, reading.Sequence, source.EnqueuedTimeUnixMs, reading.ObservedAt.ToUnixTimeMilliseconds(), from.Envelope, from.Reading));
        if (staleBy is null)
        {
            UpdateLatest(batch.Latest, deviceId, id, reading, source, from, batch.Pending.Count - 1);
            return;
        }

        // A stale reading stays out of the live view, the device's latest state included, unless the handler finds it
        // live already (a redelivery of a batch whose readings were written before the instance died): then it is the
        // state that batch never wrote. Rendered now, while the reading is at hand.
        batch.Stale++;
        if (_renderStaleStates && MayWin(reading, source))
        {
            batch.StaleStates.Add(new StaleDeviceState(batch.Pending.Count - 1, RenderState(deviceId, id, reading, source, from, batch.Pending.Count - 1)));
        }
    }

    /// <summary>False for a reading dated in the future by the device's clock: stored as a reading, never the device's state.</summary>
    private bool MayWin(in ReadingView reading, in SourcePosition source) =>
        NewerWins.MayWin(reading.ObservedAt, source.EnqueuedTimeUnixMs, _maxClockSkew);

    private void UpdateLatest(List<DeviceLatest> latest, string deviceId, string readingId, in ReadingView reading, in SourcePosition source, ReadingSource from,
        int pendingIndex)
    {
        if (!MayWin(reading, source))
        {
            return;
        }

        var known = _latestIndex.TryGetValue(deviceId, out var slot);
        if (known && NewerWins.Compare(reading.Sequence, reading.ObservedAt, latest[slot].Sequence, latest[slot].ObservedAt) <= 0)
        {
            return; // coalescing: an older (or equal) reading of the same device never replaces a newer one
        }

        var entry = RenderState(deviceId, readingId, reading, source, from, pendingIndex);
        if (known)
        {
            latest[slot] = entry;
        }
        else
        {
            _latestIndex[deviceId] = latest.Count;
            latest.Add(entry);
        }
    }

    /// <summary>
    /// Renders the device-state document of one reading. The same for a fresh and a stale reading: nothing in it depends on
    /// staleness, so the state a stale-but-live reading yields is the one its live path would have written.
    /// </summary>
    private DeviceLatest RenderState(string deviceId, string readingId, in ReadingView reading, in SourcePosition source, ReadingSource from, int pendingIndex)
    {
        var observedAt = reading.ObservedAt;
        var version = NewerWins.VersionKey(reading.Sequence, observedAt);
        var offset = _buffer.WrittenCount;
        _writer.Reset(_buffer);
        DeviceStateWriter.Write(_writer, reading, source, readingId, version);
        _writer.Flush();
        return new DeviceLatest(deviceId, _kindName, reading.Sequence, observedAt, version, readingId,
            reading.Longitude, reading.Latitude, reading.AltitudeM, source.EnqueuedTimeUnixMs, offset, _buffer.WrittenCount - offset, from.Envelope, from.Reading, pendingIndex);
    }

    /// <summary>A reading's place: the envelope's index in the batch, the reading's among the envelope's entries.</summary>
    private readonly record struct ReadingSource(int Envelope, int Reading);

    /// <summary>What one <see cref="Process"/> call gathers.</summary>
    private sealed class Accumulator
    {
        public List<PendingDocument> Pending { get; } = [];

        public List<DeviceLatest> Latest { get; } = [];

        public List<StaleDeviceState> StaleStates { get; } = [];

        public List<DeadLetter> DeadLetters { get; } = [];

        public int Received { get; set; }

        public int Stale { get; set; }

        public long Oldest { get; set; } = long.MaxValue;
    }
}
