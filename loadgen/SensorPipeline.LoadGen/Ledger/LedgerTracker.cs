using System.Security.Cryptography;
using SensorPipeline.Core.Readings;
using SensorPipeline.Devices;
using SensorPipeline.LoadGen.Events;
using SensorPipeline.LoadGen.Sending;
using SensorPipeline.Protos;

namespace SensorPipeline.LoadGen.Ledger;

/// <summary>
/// Turns send outcomes, which arrive out of order from concurrent sends, into the ledger. A tracked event
/// is applied only once every earlier one is resolved (a watermark), so at any moment the ledger says
/// "sequences 1..N of each device were resolved" — true even for a snapshot taken mid-run, which is what
/// lets an interrupted run still verify what it acknowledged. Thread-safe.
/// </summary>
internal sealed class LedgerTracker
{
    private readonly Lock _gate = new();
    private readonly LedgerDevice[] _devices;
    private readonly Dictionary<long, (IReadOnlyList<DeviceSpan> Spans, bool Sent)> _waiting = [];
    private readonly List<LedgerInjection> _injected = [];
    private readonly LedgerCounts _counts = new();
    private long _watermark;

    public LedgerTracker(DeviceFleet fleet)
    {
        ArgumentNullException.ThrowIfNull(fleet);
        _devices = [.. fleet.Devices.Select(d => new LedgerDevice { Id = d.Id, Kind = d.Kind.Name() })];
    }

    /// <summary>Tracked events applied so far (all events below this index are resolved).</summary>
    public long Watermark
    {
        get
        {
            lock (_gate)
            {
                return _watermark;
            }
        }
    }

    /// <summary>Records how the hub answered a malformed request.</summary>
    public void RecordMalformed(bool refusedAsExpected)
    {
        lock (_gate)
        {
            if (refusedAsExpected)
            {
                _counts.MalformedRefused++;
            }
            else
            {
                _counts.MalformedAccepted++;
            }
        }
    }

    /// <summary>Records one event's outcome; <paramref name="outcome"/> null means unconfirmed (interrupted mid-send).</summary>
    public void Record(PackedEvent packed, SendOutcome? outcome)
    {
        ArgumentNullException.ThrowIfNull(packed);
        var sent = outcome is { Status: SendStatus.Sent };
        lock (_gate)
        {
            _counts.Retries += outcome?.Retries ?? 0;
            switch (packed.Kind)
            {
                case EventKind.Readings:
                    if (sent)
                    {
                        _counts.EventsSent++;
                        _counts.ReadingsSent += packed.ReadingCount;
                    }
                    else if (outcome is null)
                    {
                        _counts.EventsUnconfirmed++;
                    }
                    else
                    {
                        _counts.EventsFailed++;
                        _counts.ReadingsFailed += packed.ReadingCount;
                    }

                    _waiting[packed.TrackIndex] = (packed.Spans, sent);
                    Advance();
                    break;
                case EventKind.Duplicate:
                    // The original is tracked already; a duplicate's fate changes nothing the verifier must find.
                    if (sent)
                    {
                        _counts.DuplicateEventsSent++;
                        _counts.DuplicateReadingsSent += packed.ReadingCount;
                    }

                    break;
                case EventKind.Poison or EventKind.Oversize or EventKind.Truncated or EventKind.OutOfRange or EventKind.Forged:
                    if (sent)
                    {
                        CountInjection(packed.Kind);
                    }

                    _injected.Add(new LedgerInjection
                    {
                        Kind = InjectionName(packed.Kind),
                        Sha256 = Convert.ToHexStringLower(SHA256.HashData(InjectedEvents.DeadLetterPayload(packed.Kind, packed.Body))),
                        Bytes = packed.Body.Length,
                        Acknowledged = sent,
                        Status = outcome?.StatusCode ?? 0,
                    });
                    break;
                default:
                    throw new ArgumentOutOfRangeException(nameof(packed), packed.Kind, "unknown event kind");
            }
        }
    }

    private void CountInjection(EventKind kind)
    {
        switch (kind)
        {
            case EventKind.Poison: _counts.PoisonSent++; break;
            case EventKind.Oversize: _counts.OversizeSent++; break;
            case EventKind.Truncated: _counts.TruncatedSent++; break;
            case EventKind.OutOfRange: _counts.OutOfRangeSent++; break;
            case EventKind.Forged: _counts.ForgedSent++; break;
            default: throw new ArgumentOutOfRangeException(nameof(kind), kind, "not an injection");
        }
    }

    /// <summary>The injection's name in the ledger.</summary>
    internal static string InjectionName(EventKind kind) => kind switch
    {
        EventKind.Poison => "poison",
        EventKind.Oversize => "oversize",
        EventKind.Truncated => "truncated",
        EventKind.OutOfRange => "out-of-range",
        EventKind.Forged => "forged",
        _ => throw new ArgumentOutOfRangeException(nameof(kind), kind, "not an injection"),
    };

    /// <summary>A copy of the ledger as it stands.</summary>
    public RunLedger Snapshot(string target, int seed, DateTimeOffset startedAt, DateTimeOffset now, TimeSpan elapsed, bool complete, TimeSpan cpu = default)
    {
        lock (_gate)
        {
            return new RunLedger
            {
                Target = target,
                Seed = seed,
                StartedAt = startedAt,
                UpdatedAt = now,
                Complete = complete,
                Counts = new LedgerCounts
                {
                    EventsSent = _counts.EventsSent,
                    ReadingsSent = _counts.ReadingsSent,
                    EventsFailed = _counts.EventsFailed,
                    ReadingsFailed = _counts.ReadingsFailed,
                    EventsUnconfirmed = _counts.EventsUnconfirmed,
                    Retries = _counts.Retries,
                    DuplicateEventsSent = _counts.DuplicateEventsSent,
                    DuplicateReadingsSent = _counts.DuplicateReadingsSent,
                    PoisonSent = _counts.PoisonSent,
                    OversizeSent = _counts.OversizeSent,
                    TruncatedSent = _counts.TruncatedSent,
                    OutOfRangeSent = _counts.OutOfRangeSent,
                    ForgedSent = _counts.ForgedSent,
                    MalformedRefused = _counts.MalformedRefused,
                    MalformedAccepted = _counts.MalformedAccepted,
                    ElapsedSeconds = elapsed.TotalSeconds,
                    CpuSeconds = cpu.TotalSeconds,
                },
                Devices = [.. _devices.Select(d => new LedgerDevice { Id = d.Id, Kind = d.Kind, HighestSequence = d.HighestSequence, Unsent = [.. d.Unsent] })],
                Injected = [.. _injected.Select(i => new LedgerInjection { Kind = i.Kind, Sha256 = i.Sha256, Bytes = i.Bytes, Acknowledged = i.Acknowledged, Status = i.Status })],
            };
        }
    }

    private void Advance()
    {
        while (_waiting.Remove(_watermark, out var resolved))
        {
            foreach (var span in resolved.Spans)
            {
                var device = _devices[span.DeviceIndex];
                device.HighestSequence = Math.Max(device.HighestSequence, span.Last);
                if (!resolved.Sent)
                {
                    // Merge with the previous gap when contiguous, so a failed stretch stays one entry.
                    if (device.Unsent.Count > 0 && device.Unsent[^1].Last + 1 == span.First)
                    {
                        device.Unsent[^1] = device.Unsent[^1] with { Last = span.Last };
                    }
                    else
                    {
                        device.Unsent.Add(new SequenceRange(span.First, span.Last));
                    }
                }
            }

            _watermark++;
        }
    }
}
