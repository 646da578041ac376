using System.Buffers;
using System.Text.Json;
using SensorPipeline.Core.DeadLetters;
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
    private readonly StalenessPolicy _staleness;
    private readonly DeviceIdCache _deviceIds;
    private readonly bool _renderStaleStates;
    private readonly ArrayBufferWriter<byte> _buffer = new(256 * 1024);
    private readonly Utf8JsonWriter _writer;
    private readonly List<SourcePosition> _sources = [];
    private readonly Dictionary<string, int> _latestIndex = new(StringComparer.Ordinal);
    private byte[] _decoded = new byte[64 * 1024];

    /// <param name="kind">The kind this processor accepts: weather or seismic.</param>
    /// <param name="stage">The stage name stored in dead letters (e.g. <c>weather-processor</c>).</param>
    /// <param name="staleness">The staleness rule.</param>
    /// <param name="deviceIds">Optional shared-per-instance string cache.</param>
    /// <param name="renderStaleStates">Whether a stale reading that may win gets its device state rendered (default true).
    /// Only a handler that checks stale readings against the live view can use one; with no such check (a zero
    /// redelivery window) every rendered state would be thrown away.</param>
    public EnvelopeProcessor(SensorKind kind, string stage, StalenessPolicy staleness, DeviceIdCache? deviceIds = null, bool renderStaleStates = true)
    {
        _kindName = kind.Name(); // throws for a kind the pipeline does not route
        _kind = kind;
        Stage = stage ?? throw new ArgumentNullException(nameof(stage));
        _staleness = staleness ?? throw new ArgumentNullException(nameof(staleness));
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
        var pending = new List<PendingDocument>();
        var latest = new List<DeviceLatest>();
        var staleStates = new List<StaleDeviceState>();
        var deadLetters = new List<DeadLetter>();
        var received = 0;
        var stale = 0;
        var oldest = long.MaxValue;

        foreach (var envelope in envelopes)
        {
            var body = Unwrap(envelope.Body.Span, out var header);
            var count = 0;
            if (header == DeadLetterReason.None)
            {
                header = EnvelopeReader.TryReadHeader(body, _sources, out var kind, out _, out count);
                if (header == DeadLetterReason.None && kind != _kind)
                {
                    header = DeadLetterReason.PayloadMismatch; // an envelope on the wrong hub: keep it whole for a human
                }
            }

            if (header != DeadLetterReason.None)
            {
                deadLetters.Add(new DeadLetter(Stage, header, envelope.Position, null, null, envelope.Body));
                continue;
            }

            received += count;
            var index = 0;
            foreach (var entry in EnvelopeReader.EnumerateReadings(body))
            {
                var position = index++;
                if (!EnvelopeReader.TryReadForwardedReading(entry, _sources.Count, out var raw, out var sourceIndex)
                    || !ReadingDecoder.TryDecode(raw, out var reading))
                {
                    deadLetters.Add(new DeadLetter(Stage, DeadLetterReason.Undecodable, envelope.Position, position, null, entry.ToArray()));
                    continue;
                }

                // The splitter validated already; checking again costs little and protects against other producers.
                var reason = ReadingValidator.Validate(reading);
                if (reason == DeadLetterReason.None && reading.Kind != _kind)
                {
                    reason = DeadLetterReason.PayloadMismatch;
                }

                if (reason != DeadLetterReason.None)
                {
                    deadLetters.Add(new DeadLetter(Stage, reason, envelope.Position, position, null, raw.ToArray()));
                    continue;
                }

                var source = _sources[sourceIndex];
                oldest = Math.Min(oldest, source.EnqueuedTimeUnixMs);
                var staleBy = _staleness.StaleBy(source.EnqueuedTimeUnixMs, nowUnixMs);
                var deviceId = _deviceIds.Get(reading.DeviceIdUtf8);
                var id = DocumentIds.ReadingId(deviceId, reading.Sequence, reading.ObservedAt);
                var offset = _buffer.WrittenCount;
                _writer.Reset(_buffer);
                GeoJsonFeatureWriter.Write(_writer, reading, source, staleBy);
                _writer.Flush();
                var observedMs = reading.ObservedAt.ToUnixTimeMilliseconds();
                pending.Add(new PendingDocument(staleBy is null ? DocumentTarget.Live : DocumentTarget.Archive, deviceId, id,
                    offset, _buffer.WrittenCount - offset, reading.Sequence, source.EnqueuedTimeUnixMs, observedMs));

                if (staleBy is not null)
                {
                    // A stale reading stays out of the live view, the device's latest state included, unless the handler
                    // finds it live already (a redelivery of a batch whose readings were written before the instance died):
                    // then it is the state that batch never wrote. Rendered now, while the reading is at hand.
                    stale++;
                    if (_renderStaleStates && MayWin(reading, source))
                    {
                        staleStates.Add(new StaleDeviceState(pending.Count - 1, RenderState(deviceId, id, reading, source)));
                    }

                    continue;
                }

                UpdateLatest(latest, deviceId, id, reading, source);
            }
        }

        return new ProcessResult(_buffer.WrittenMemory, pending, latest, staleStates, deadLetters, received, stale, oldest == long.MaxValue ? 0 : oldest);
    }

    /// <summary>
    /// The binary envelope of an event body: a text envelope (what the splitter writes) is decoded into a reused
    /// buffer; anything else is taken as a binary envelope, the format written before text envelopes, which may still
    /// sit in the hubs after an upgrade (<see cref="EnvelopeText"/> explains why the two cannot be confused).
    /// </summary>
    private ReadOnlySpan<byte> Unwrap(ReadOnlySpan<byte> body, out DeadLetterReason reason)
    {
        reason = DeadLetterReason.None;
        if (!EnvelopeText.IsText(body))
        {
            return body;
        }

        var needed = EnvelopeText.MaxDecodedLength(body);
        if (_decoded.Length < needed)
        {
            _decoded = new byte[Math.Max(needed, _decoded.Length * 2)];
        }

        if (!EnvelopeText.TryDecode(body, _decoded, out var written))
        {
            reason = DeadLetterReason.Undecodable;
            return default;
        }

        return _decoded.AsSpan(0, written);
    }

    /// <summary>False for a reading dated in the future by the device's clock: stored as a reading, never the device's state.</summary>
    private bool MayWin(in ReadingView reading, in SourcePosition source) =>
        NewerWins.MayWin(reading.ObservedAt, source.EnqueuedTimeUnixMs, _staleness.MaxClockSkew);

    private void UpdateLatest(List<DeviceLatest> latest, string deviceId, string readingId, in ReadingView reading, in SourcePosition source)
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

        var entry = RenderState(deviceId, readingId, reading, source);
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
    private DeviceLatest RenderState(string deviceId, string readingId, in ReadingView reading, in SourcePosition source)
    {
        var observedAt = reading.ObservedAt;
        var version = NewerWins.VersionKey(reading.Sequence, observedAt);
        var offset = _buffer.WrittenCount;
        _writer.Reset(_buffer);
        DeviceStateWriter.Write(_writer, reading, source, readingId, version);
        _writer.Flush();
        return new DeviceLatest(deviceId, _kindName, reading.Sequence, observedAt, version, readingId,
            reading.Longitude, reading.Latitude, reading.AltitudeM, source.EnqueuedTimeUnixMs, offset, _buffer.WrittenCount - offset);
    }
}
