using Microsoft.Extensions.Logging;
using SensorPipeline.Devices;
using SensorPipeline.LoadGen.Events;
using SensorPipeline.LoadGen.Ledger;
using SensorPipeline.LoadGen.Sending;

namespace SensorPipeline.LoadGen.Run;

/// <summary>What a run ended with.</summary>
/// <param name="Ledger">The final ledger (also written to the file when one was asked for).</param>
/// <param name="Counters">Counts and the send-latency histogram.</param>
/// <param name="Elapsed">From the first send to the last answer.</param>
/// <param name="Interrupted">Cancelled (Ctrl+C) before the end.</param>
/// <param name="PauseFailed">A pause or resume call to devhost failed.</param>
internal sealed record RunResult(RunLedger Ledger, RunCounters Counters, TimeSpan Elapsed, bool Interrupted, bool PauseFailed);

/// <summary>
/// One load run: builds events on one producer loop paced by <see cref="Pacer"/>, sends up to
/// <see cref="SendOptions.Concurrency"/> at once, injects bad events, and keeps the ledger current.
/// </summary>
internal sealed partial class LoadRunner : IDisposable
{
    private readonly SendOptions _options;
    private readonly IEventSender _sender;
    private readonly TimeProvider _time;
    private readonly ILogger _logger;
    private readonly ProgressLine _progress;
    private readonly PauseController? _pause;
    private readonly IEventSender? _forgedSender;
    private readonly EventSender? _restSender;
    private readonly DeviceFleet _fleet;
    private readonly EventPacker _packer;
    private readonly LedgerTracker _tracker;
    private readonly RunCounters _counters = new();
    private readonly SemaphoreSlim _permits;
    private readonly Random _injectionRandom;
    private readonly Queue<EventKind> _pendingInjections = new();
    private PackedEvent? _lastAcknowledged;
    private Exception? _failure;
    private int _injectedSoFar;
    private int _malformedSoFar;

    // forgedSender sends Forged envelopes to their processor hub; required when forged ones are asked for. restSender
    // sends the malformed requests (they are REST requests whatever the transport); required when they are asked for.
    public LoadRunner(SendOptions options, IEventSender sender, TimeProvider time, ILogger logger, ProgressLine progress, PauseController? pause,
        IEventSender? forgedSender = null, EventSender? restSender = null)
    {
        _options = options ?? throw new ArgumentNullException(nameof(options));
        _sender = sender ?? throw new ArgumentNullException(nameof(sender));
        _time = time ?? throw new ArgumentNullException(nameof(time));
        _logger = logger ?? throw new ArgumentNullException(nameof(logger));
        _progress = progress ?? throw new ArgumentNullException(nameof(progress));
        _pause = pause;
        _forgedSender = forgedSender;
        _restSender = restSender ?? sender as EventSender;
        if (options.Forged > 0 && forgedSender is null)
        {
            throw new ArgumentException("Forged envelopes need a sender for their processor hub.", nameof(forgedSender));
        }

        if (options.MalformedSends > 0 && _restSender is null)
        {
            throw new ArgumentException("Malformed sends need a REST sender.", nameof(restSender));
        }

        _fleet = new DeviceFleet(options.DevicesPerKind(), options.Seed, options.DevicePrefix);
        _packer = new EventPacker(_fleet);
        _tracker = new LedgerTracker(_fleet);
        _permits = new SemaphoreSlim(options.Concurrency, options.Concurrency);
        // Unseeded on purpose: poison bodies differ between runs, so one run's dead letters never satisfy another run's ledger.
        _injectionRandom = new Random();
        // Alternate the kinds so a short run still gets some of each.
        (EventKind Kind, int Count)[] injections =
        [
            (EventKind.Poison, options.Poison), (EventKind.Oversize, options.Oversize), (EventKind.Truncated, options.Truncated),
            (EventKind.OutOfRange, options.OutOfRange), (EventKind.Forged, options.Forged), (EventKind.MalformedSend, options.MalformedSends),
        ];
        for (var i = 0; i < injections.Max(k => k.Count); i++)
        {
            foreach (var (kind, wanted) in injections)
            {
                if (i < wanted)
                {
                    _pendingInjections.Enqueue(kind);
                }
            }
        }
    }

    public async Task<RunResult> RunAsync(CancellationToken cancellationToken)
    {
        var startedAt = _time.GetUtcNow();
        // CPU from here on, so start-up and JIT before the first send do not inflate the per-reading figure.
        var cpuAtStart = Environment.CpuUsage.TotalTime;
        var pacer = new Pacer(_time, _options.Rate, _options.ReadingsPerEvent);
        // Sends get their own token: on Ctrl+C the producer stops at once, in-flight sends get a grace period.
        using var sendCancel = new CancellationTokenSource();
        using var producerStop = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        await using var onCancel = cancellationToken.Register(() => sendCancel.CancelAfter(_options.Grace));
        using var pauseCancel = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        var pauseTask = _pause?.RunAsync(pauseCancel.Token) ?? Task.FromResult(true);
        using var reporterStop = new CancellationTokenSource();
        var reporter = ReportAsync(pacer, startedAt, reporterStop.Token);

        var interrupted = false;
        try
        {
            await ProduceAsync(pacer, producerStop, sendCancel.Token, cancellationToken);
        }
        catch (OperationCanceledException) when (producerStop.IsCancellationRequested)
        {
            // Ctrl+C, or a send failed unexpectedly (then _failure is rethrown below, after the drain).
            interrupted = cancellationToken.IsCancellationRequested;
            if (interrupted)
            {
                LoadGenLog.RunCancelled(_logger, _options.Grace, _options.Concurrency - _permits.CurrentCount);
            }
        }

        // Drain: holding every permit means no send is in flight any more.
        for (var i = 0; i < _options.Concurrency; i++)
        {
            await _permits.WaitAsync(CancellationToken.None);
        }

        var elapsed = pacer.Elapsed;
        // The backlog episode must finish (and resume the functions) before the run reports: the demo drains after this.
        var pauseOk = await pauseTask;
        await reporterStop.CancelAsync();
        await reporter;
        _progress.Finish();

        var ledger = await FinishLedgerAsync(startedAt, elapsed, interrupted, cpuAtStart);
        if (_failure is not null)
        {
            throw new InvalidOperationException("A send failed unexpectedly: " + _failure.Message, _failure);
        }

        return new RunResult(ledger, _counters, elapsed, interrupted, !pauseOk);
    }

    private async Task<RunLedger> FinishLedgerAsync(DateTimeOffset startedAt, TimeSpan elapsed, bool interrupted, TimeSpan cpuAtStart)
    {
        var ledger = _tracker.Snapshot(_sender.Target.ToString(), _options.Seed, startedAt, _time.GetUtcNow(), elapsed,
            complete: !interrupted && _failure is null, Environment.CpuUsage.TotalTime - cpuAtStart);
        if (_pause?.Episode is { } episode)
        {
            ledger.Pauses.Add(episode);
        }

        if (_options.Ledger is { } path)
        {
            // The final write, also after a failure: the ledger covers every acknowledged event (unconfirmed ones are listed as unsent).
            await LedgerFile.WriteAsync(path, ledger, CancellationToken.None);
            LoadGenLog.LedgerWritten(_logger, path, ledger.Counts.EventsSent);
        }

        return ledger;
    }

    private async Task ProduceAsync(Pacer pacer, CancellationTokenSource producerStop, CancellationToken sendToken, CancellationToken cancellationToken)
    {
        var token = producerStop.Token;
        long slot = 0;
        long readingsBuilt = 0;
        var sinceDuplicate = 0;
        while (_failure is null)
        {
            // The schedule counts readings events only: duplicates and injections go out in between, on top of
            // --rate, so the rate asked for is the rate of new readings the pipeline must keep up with.
            var next = _packer.EventsBuilt;
            if ((_options.Count is { } count && readingsBuilt >= count)
                || (_options.Duration is { } duration && (pacer.DueOffset(next) >= duration || pacer.Elapsed >= duration)))
            {
                break;
            }

            PackedEvent packed;
            if (_pendingInjections.Count > 0 && slot % _options.InjectEvery == _options.InjectEvery / 2)
            {
                packed = BuildInjection(_pendingInjections.Dequeue());
            }
            else if (_options.DuplicateEvery > 0 && sinceDuplicate >= _options.DuplicateEvery && Volatile.Read(ref _lastAcknowledged) is { } original)
            {
                packed = original with { Kind = EventKind.Duplicate, TrackIndex = -1, Spans = [] };
                sinceDuplicate = 0;
            }
            else
            {
                await pacer.WaitAsync(next, token);
                var size = (int)Math.Min(_options.ReadingsPerEvent, (_options.Count ?? long.MaxValue) - readingsBuilt);
                packed = _packer.Next(size, _time.GetUtcNow() + _options.ClockSkew);
                readingsBuilt += size;
                sinceDuplicate++;
            }

            await StartSendAsync(packed, producerStop, sendToken, token);
            slot++;
        }

        // Injections the run had no slot for still go out, so the counts asked for are the counts sent.
        while (_pendingInjections.Count > 0 && _failure is null && !cancellationToken.IsCancellationRequested)
        {
            await StartSendAsync(BuildInjection(_pendingInjections.Dequeue()), producerStop, sendToken, token);
        }
    }

    private async Task StartSendAsync(PackedEvent packed, CancellationTokenSource producerStop, CancellationToken sendToken, CancellationToken token)
    {
        try
        {
            await _permits.WaitAsync(token);
        }
        catch (OperationCanceledException) when (packed.Kind == EventKind.Readings)
        {
            // Built but never sent: resolve it as unsent so the ledger's watermark can pass it.
            _tracker.Record(packed, null);
            throw;
        }

        // Not awaited here: the permit bounds how many run at once, and the drain in RunAsync awaits them all.
        _ = SendOneAsync(packed, producerStop, sendToken);
    }

    private PackedEvent BuildInjection(EventKind kind)
    {
        var number = ++_injectedSoFar;
        var now = _time.GetUtcNow();
        var body = kind switch
        {
            EventKind.Poison => InjectedEvents.Poison(_injectionRandom, 64 + _injectionRandom.Next(512)),
            EventKind.Oversize => InjectedEvents.Oversize(number, _options.OversizeBytes, now),
            EventKind.Truncated => InjectedEvents.Truncated(_injectionRandom, number, now),
            EventKind.OutOfRange => InjectedEvents.OutOfRange(number, now),
            EventKind.Forged => InjectedEvents.Forged(number, now),
            EventKind.MalformedSend => [],
            _ => throw new ArgumentOutOfRangeException(nameof(kind), kind, "not an injection"),
        };
        return new PackedEvent(kind, body, 0, [], -1);
    }

    private async Task SendOneAsync(PackedEvent packed, CancellationTokenSource producerStop, CancellationToken sendToken)
    {
        if (packed.Kind == EventKind.MalformedSend)
        {
            await ProbeOneAsync(sendToken);
            return;
        }

        try
        {
            var sender = packed.Kind == EventKind.Forged ? _forgedSender! : _sender;
            var outcome = await sender.SendAsync(packed.Body, sendToken);
            _counters.Record(outcome, packed.ReadingCount);
            _tracker.Record(packed, outcome);
            switch (outcome.Status)
            {
                case SendStatus.Sent when packed.Kind == EventKind.Readings:
                    Volatile.Write(ref _lastAcknowledged, packed);
                    break;
                case SendStatus.Rejected:
                    LoadGenLog.SendRejected(_logger, KindName(packed.Kind), packed.ReadingCount, outcome.Attempts, outcome.Detail);
                    break;
                case SendStatus.GaveUp:
                    LoadGenLog.SendGaveUp(_logger, KindName(packed.Kind), packed.ReadingCount, outcome.Attempts, outcome.Detail);
                    break;
                default:
                    break;
            }
        }
        catch (OperationCanceledException) when (sendToken.IsCancellationRequested)
        {
            // Abandoned after the grace period: the hub may or may not have it, so the ledger lists it as unsent.
            _tracker.Record(packed, null);
        }
        catch (Exception e)
        {
            // Not an HTTP failure (those are outcomes): a bug. Stop producing and surface it at the end of the run.
            Interlocked.CompareExchange(ref _failure, e, null);
            _tracker.Record(packed, null);
            await producerStop.CancelAsync();
        }
        finally
        {
            _permits.Release();
        }
    }

    private async Task ProbeOneAsync(CancellationToken sendToken)
    {
        try
        {
            var (content, authorize, expected, name) = MalformedSends.Build(Interlocked.Increment(ref _malformedSoFar));
            using (content)
            {
                var status = await _restSender!.ProbeAsync(content, authorize, sendToken);
                var refused = expected.Contains(status);
                _tracker.RecordMalformed(refused);
                if (!refused)
                {
                    LoadGenLog.MalformedNotRefused(_logger, name, status, string.Join("/", expected));
                }
            }
        }
        catch (OperationCanceledException) when (sendToken.IsCancellationRequested)
        {
            // Abandoned with the run: nothing to account for, it was never an event.
        }
        finally
        {
            _permits.Release();
        }
    }

    public void Dispose() => _permits.Dispose();

    private static string KindName(EventKind kind) => kind.ToString().ToLowerInvariant();
}
