using Microsoft.Extensions.Options;
using SensorPipeline.Functions.Options;

namespace SensorPipeline.Functions.DeviceStates;

/// <summary>
/// Writes the pending device states in the background. Each round (a fiftieth of W, 20 ms to 200 ms): every device
/// whose earliest uncovered reading is W less a second old (less half of W, for a W under 2 s) is written through the
/// guard — the second is the round's and the write's, so the state is durable by W after that reading was stored, and
/// a device sending every second still costs one write per ten readings at W = 10 s (each write covers the readings of
/// nine seconds and a bit: ten of them); then, at most once a second,
/// this instance's mark is renewed with the instant before which all its readings' states are durable (its heartbeat
/// too); every half mark expiry it
/// also recovers the marks of instances taken for dead. A failed write keeps its state pending for the next round. On a
/// graceful stop it writes every pending state and deletes its mark; a state it could not write keeps the mark, which
/// another instance recovers.
/// </summary>
internal sealed class DeviceStateFlusher(
    PendingDeviceStates pending,
    DeviceStateWrites writes,
    PendingStatesMarks marks,
    DeviceStateRecovery recovery,
    DeviceStateStatus status,
    TimeProvider clock,
    IOptions<PipelineOptions> options,
    ILogger<DeviceStateFlusher> logger) : BackgroundService
{
    private readonly TimeSpan _lag = options.Value.DeviceStateLag;
    private readonly TimeSpan _recoveryInterval = options.Value.DeviceStateMarkExpiry / 2;

    /// <summary>How much earlier than W a state is taken: time for the round to come round and the write to land.</summary>
    private TimeSpan Slack => _lag >= TimeSpan.FromSeconds(2) ? TimeSpan.FromSeconds(1) : _lag / 2;

    /// <summary>The least time between two renewals of the mark: its instant a second behind costs the recovery a
    /// second more of readings, a renewal per round would cost a write per round.</summary>
    private static readonly TimeSpan MarkInterval = TimeSpan.FromSeconds(1);

    private DateTimeOffset _markRenewed = DateTimeOffset.MinValue;

    /// <summary>How often a round runs: a fiftieth of W.</summary>
    public TimeSpan Round => TimeSpan.FromMilliseconds(Math.Clamp(_lag.TotalMilliseconds / 50, 20, 200));

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        using var timer = new PeriodicTimer(Round, clock);
        var nextRecovery = clock.GetUtcNow();
        while (await timer.WaitForNextTickAsync(stoppingToken))
        {
            await RunRoundAsync(stoppingToken);
            if (clock.GetUtcNow() >= nextRecovery)
            {
                nextRecovery = clock.GetUtcNow() + _recoveryInterval;
                await RecoverAsync(stoppingToken);
            }
        }
    }

    /// <summary>One round: the due states, then the mark. Internal for the tests, which drive rounds on a fake clock.</summary>
    internal async Task RunRoundAsync(CancellationToken cancellationToken, bool all = false)
    {
        try
        {
            await FlushAsync(all, cancellationToken);
            if (all || clock.GetUtcNow() - _markRenewed >= MarkInterval)
            {
                await marks.RenewAsync(() => (pending.StoredBefore(), pending.Count), cancellationToken);
                _markRenewed = clock.GetUtcNow();
            }
        }
        catch (Exception e) when (!cancellationToken.IsCancellationRequested)
        {
            FunctionsLog.DeviceStatesRoundFailed(logger, "write or renew", e);
        }
    }

    /// <summary>Recovers expired marks of other instances. Internal for the tests.</summary>
    internal async Task RecoverAsync(CancellationToken cancellationToken)
    {
        try
        {
            await recovery.RecoverExpiredAsync(cancellationToken);
        }
        catch (Exception e) when (!cancellationToken.IsCancellationRequested)
        {
            FunctionsLog.DeviceStatesRoundFailed(logger, "recovery", e);
        }
    }

    public override async Task StopAsync(CancellationToken cancellationToken)
    {
        await base.StopAsync(cancellationToken);
        // From here no invocation commits on this mark (each adds its states before it checks), so the rounds below
        // write every state a committed invocation left.
        marks.Close();
        try
        {
            for (var attempt = 0; attempt < 3 && pending.Count > 0 && !cancellationToken.IsCancellationRequested; attempt++)
            {
                await RunRoundAsync(cancellationToken, all: true);
            }

            if (pending.Count == 0)
            {
                // A stop already out of time leaves the mark (recovery finds nothing to do): whether a client checks a
                // cancelled token before it sends is the client's affair, so the flusher decides here.
                cancellationToken.ThrowIfCancellationRequested();
                await marks.DeleteOwnAsync(cancellationToken);
                return;
            }
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // The host's shutdown timeout ran out (a large backlog of pending states takes a while to write): the stop
            // still ends cleanly, and the mark it could not delete is what tells another instance to recover them.
            FunctionsLog.DeviceStatesStopCutShort(logger, pending.Count, marks.Id);
            return;
        }

        FunctionsLog.DeviceStatesLeftPending(logger, pending.Count, marks.Id);
    }

    private async Task FlushAsync(bool all, CancellationToken cancellationToken)
    {
        // Taken early by the slack, so the write lands by W.
        var due = pending.TakeDue(_lag - Slack, all);
        if (due.Count == 0)
        {
            return;
        }

        var tally = await writes.WriteAsync(due, (state, durable) =>
        {
            pending.Finish(state.State, durable);
            if (durable)
            {
                status.Durable(clock.GetUtcNow().ToUnixTimeMilliseconds() - state.WaitingSinceUnixMs);
            }
        }, cancellationToken);
        status.Add(tally);
        if (tally.Failed > 0)
        {
            FunctionsLog.DeviceStatesFlushFailed(logger, tally.Failed, due.Count, tally.FirstFailure);
        }
    }
}
