namespace SensorPipeline.Stack.Chaos;

/// <summary>
/// Watches devhost's checkpoints and lag through a chaos run from outside, as an operator would: a partition is stalled
/// while it has events to read and its checkpoint does not move. devhost's own stall detector answers the same question
/// but forgets when devhost is killed; this watch keeps the clock running while devhost is down — the first poll after
/// the restart finds the checkpoint where it was.
/// </summary>
public sealed class ProgressWatch : IAsyncDisposable
{
    private static readonly TimeSpan PollInterval = TimeSpan.FromMilliseconds(250);
    private static readonly TimeSpan BaselineWindow = TimeSpan.FromSeconds(3);

    /// <summary>Events of lag above the baseline that still count as caught up: a poll can land mid-invocation.</summary>
    public const long LagSlack = 5;

    /// <summary>How far back before an episode the steady state's lag is taken from.</summary>
    public static TimeSpan BaselineSpan => BaselineWindow;

    private readonly Func<CancellationToken, Task<FunctionsStatus>> _status;
    private readonly Dictionary<(string Function, string Partition), (long? Checkpoint, DateTimeOffset Since)> _partitions = [];
    private readonly Queue<(DateTimeOffset At, long Lag)> _recentLag = new();
    private readonly List<(DateTimeOffset At, long Lag)>? _history;
    private readonly Lock _gate = new();
    private readonly CancellationTokenSource _stop = new();
    private readonly Task _loop;
    private TimeSpan _longestStall;
    private long _lastTotalLag = long.MaxValue;
    private DateTimeOffset _lastPoll;
    private long _retried;
    private long _retriedSeen;

    /// <param name="pipeline">The stack to watch.</param>
    /// <param name="keepHistory">Keep every poll's total lag (<see cref="History"/>): for a run of minutes, not hours.</param>
    public ProgressWatch(LocalPipeline pipeline, bool keepHistory = false)
        : this((pipeline ?? throw new ArgumentNullException(nameof(pipeline))).GetFunctionsStatusAsync, keepHistory)
    {
    }

    /// <param name="status">Where each poll reads devhost's status from.</param>
    /// <param name="keepHistory">Keep every poll's total lag (<see cref="History"/>).</param>
    public ProgressWatch(Func<CancellationToken, Task<FunctionsStatus>> status, bool keepHistory = false)
    {
        _status = status ?? throw new ArgumentNullException(nameof(status));
        _history = keepHistory ? [] : null;
        _loop = RunAsync(_stop.Token);
    }

    /// <summary>Starts a new phase: the longest stall and the retried-invocation count start again from zero.</summary>
    public void Reset()
    {
        lock (_gate)
        {
            _longestStall = TimeSpan.Zero;
            _retried = 0;
        }
    }

    /// <summary>The longest time any partition went without progress while it had events to read, since <see cref="Reset"/>.</summary>
    public TimeSpan LongestStall
    {
        get
        {
            lock (_gate)
            {
                return _longestStall;
            }
        }
    }

    /// <summary>Invocations that failed and were retried since <see cref="Reset"/> (summed across devhost restarts).</summary>
    public long RetriedInvocations
    {
        get
        {
            lock (_gate)
            {
                return _retried;
            }
        }
    }

    /// <summary>Every poll's total lag (events, every function and partition), oldest first; empty unless kept.</summary>
    public IReadOnlyList<(DateTimeOffset At, long Lag)> History
    {
        get
        {
            lock (_gate)
            {
                return _history is null ? [] : [.. _history];
            }
        }
    }

    /// <summary>The highest total lag (events, every function and partition) seen in the last few seconds: the steady state
    /// a fault's recovery is measured back to.</summary>
    public long BaselineLag()
    {
        lock (_gate)
        {
            return _recentLag.Count == 0 ? 0 : _recentLag.Max(s => s.Lag);
        }
    }

    /// <summary>Waits for the first poll after <paramref name="since"/> whose total lag is back to <paramref name="baseline"/>
    /// (plus a few events of slack) and returns its time; null when <paramref name="timeout"/> passes first.</summary>
    public async Task<DateTimeOffset?> WaitForRecoveryAsync(DateTimeOffset since, long baseline, TimeSpan timeout, CancellationToken cancellationToken)
    {
        try
        {
            return await Eventually.ValueAsync(() =>
            {
                lock (_gate)
                {
                    return Task.FromResult<DateTimeOffset?>(_lastPoll > since && _lastTotalLag <= baseline + LagSlack ? _lastPoll : null);
                }
            }, recovered => recovered is not null, "the lag back to its baseline", timeout, PollInterval, cancellationToken: cancellationToken);
        }
        catch (TimeoutException)
        {
            // Not recovered in time: the caller reports it as a problem of the run.
            return null;
        }
    }

    private async Task RunAsync(CancellationToken cancellationToken)
    {
        while (!cancellationToken.IsCancellationRequested)
        {
            try
            {
                Observe(await _status(cancellationToken), DateTimeOffset.UtcNow);
            }
            catch (Exception e) when (e is HttpRequestException or TaskCanceledException or InvalidOperationException && !cancellationToken.IsCancellationRequested)
            {
                // devhost is down (killed, restarting) or its handler is: the stall clock keeps running.
            }
            catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
            {
                // Disposed while a status request was in flight: stopping, not a failure of the run.
                return;
            }

            try
            {
                await Task.Delay(PollInterval, cancellationToken);
            }
            catch (OperationCanceledException)
            {
                return;
            }
        }
    }

    private void Observe(FunctionsStatus status, DateTimeOffset now)
    {
        lock (_gate)
        {
            long totalLag = 0, retried = 0;
            foreach (var function in status.Functions)
            {
                retried += function.InvocationsRetried;
                foreach (var partition in function.Partitions)
                {
                    totalLag += partition.Lag;
                    var key = (function.Name, partition.PartitionId);
                    if (!_partitions.TryGetValue(key, out var seen) || seen.Checkpoint != partition.CheckpointSequenceNumber || partition.Lag == 0)
                    {
                        _partitions[key] = (partition.CheckpointSequenceNumber, now);
                        continue;
                    }

                    var stalled = now - seen.Since;
                    if (stalled > _longestStall)
                    {
                        _longestStall = stalled;
                    }
                }
            }

            // devhost's counters start again at 0 when it restarts: a drop means a new process, count all it has.
            _retried += retried >= _retriedSeen ? retried - _retriedSeen : retried;
            _retriedSeen = retried;
            _lastTotalLag = totalLag;
            _lastPoll = now;
            _recentLag.Enqueue((now, totalLag));
            _history?.Add((now, totalLag));
            while (_recentLag.Count > 0 && now - _recentLag.Peek().At > BaselineWindow)
            {
                _recentLag.Dequeue();
            }
        }
    }

    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync();
        await _loop;
        _stop.Dispose();
    }
}
