using SensorPipeline.Core.DeviceStates;

namespace SensorPipeline.Functions.Options;

/// <summary>How the processors treat readings and write them (configuration section <c>Pipeline</c>).</summary>
internal sealed class PipelineOptions
{
    public const string Section = "Pipeline";

    /// <summary>
    /// A reading older than this (now − its ingestion event's enqueued time) is stale: archived, not live.
    /// Default 00:05:00 (the cut-off in "Performance tuning - Event streaming"); must be positive.
    /// </summary>
    public TimeSpan MaxAge { get; set; } = TimeSpan.FromMinutes(5);

    /// <summary>
    /// How far a reading's observed-at (the device's clock) may run ahead of its ingestion event's enqueued time (the
    /// service's clock) and still become the device's state in <c>devices</c>. A reading dated further ahead is stored in
    /// <c>readings</c> like any other but never wins, so a device with a clock set in the future cannot pin its state.
    /// Default 00:05:00; 0 (no reading dated after its enqueued time wins) to 1.00:00:00 (one day).
    /// </summary>
    public TimeSpan MaxClockSkew { get; set; } = NewerWins.DefaultMaxClockSkew;

    /// <summary>
    /// How far apart two deliveries of the same reading (a producer's retry or duplicate) may be enqueued and still be
    /// reconciled when they fall on both sides of <see cref="MaxAge"/> — one copy fresh, the other stale — so the reading ends up in
    /// exactly one container: live wins. Fresh readings within this window of the max age delete a stale copy from
    /// <c>archive</c>; stale readings check <c>readings</c> after archiving. Default 00:00:30; 0 (off) to 1 hour; a window
    /// longer than MaxAge acts as MaxAge.
    /// </summary>
    public TimeSpan RedeliveryWindow { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>The window the live/archive check uses: <see cref="RedeliveryWindow"/> capped at <see cref="MaxAge"/>; zero
    /// means no check runs, so no stale reading is ever found live.</summary>
    public TimeSpan EffectiveRedeliveryWindow => RedeliveryWindow < MaxAge ? RedeliveryWindow : MaxAge;

    /// <summary>Concurrent Cosmos DB point writes per invocation (a write phase below <see cref="BulkMinimumDocuments"/>). Default 32; 1 to 256.</summary>
    public int WriteParallelism { get; set; } = 32;

    /// <summary>
    /// A write phase of an invocation (its readings and archived readings, its device states, its dead letters) with at
    /// least this many documents goes through the bulk client, which packs them into requests of up to 100 operations per
    /// partition key range; a smaller phase is sent as point operations, since the bulk client sends a batch that is not
    /// full only on its 100 ms timer. Default 20; 1 (always bulk) to 1000000 (never).
    /// </summary>
    public int BulkMinimumDocuments { get; set; } = 20;

    /// <summary>
    /// Attempts after the first for one document on a transient store answer (429, 408, 449, 503, a timeout)
    /// before the invocation fails and the host's retry policy re-runs the batch. Default 6; 0 to 20.
    /// </summary>
    public int TransientRetryCount { get; set; } = 6;

    /// <summary>First back-off delay before retrying a transient failure, doubled per attempt. Default 00:00:00.100; 0 to 1 minute.</summary>
    public TimeSpan TransientRetryBaseDelay { get; set; } = TimeSpan.FromMilliseconds(100);

    /// <summary>Longest single back-off delay (a server's retry-after is honoured up to this). Default 00:00:05; at least the base delay, at most 1 minute.</summary>
    public TimeSpan TransientRetryMaxDelay { get; set; } = TimeSpan.FromSeconds(5);

    /// <summary>
    /// Failed attempts of one batch, for a reason no retry fixes (not a transient store answer), after which its events
    /// are tested on their own: the ones that fail alone are dead-lettered as poison and the rest committed (unless
    /// batches keep failing whole: <see cref="SystemicAfterWhollyFailedBatches"/>). Counted across restarts (the attempt
    /// ledger). Default 3 (with host.json's 2 s, 4 s back-off: isolated about 6 s after the first failure); 2 to 100.
    /// </summary>
    public int IsolateAfterAttempts { get; set; } = 3;

    /// <summary>
    /// W: how long a device's state may stay behind its newest stored reading. Device states are held in memory, newest
    /// per device, and written once the first reading not yet in a durable state is this old — at one reading per second
    /// per device that is about one state write per W readings instead of one per reading. Default 00:00:10 (at one
    /// reading per second per device, under 0.1 state writes per reading); 00:00:00.050 to 00:00:10.
    /// </summary>
    public TimeSpan DeviceStateLag { get; set; } = TimeSpan.FromSeconds(10);

    /// <summary>
    /// How long an instance's pending-states mark (in <c>devices</c>) stays valid without renewal: after that another
    /// instance takes the instance for dead and rebuilds the device states of the readings it stored since the mark's
    /// instant from <c>readings</c>. It bounds how long a state can stay behind after a crash (W + this + the recovery).
    /// Default 00:00:30; 00:00:02 to 00:10:00.
    /// </summary>
    public TimeSpan DeviceStateMarkExpiry { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>
    /// Widens the recovery's query of <c>readings</c> (by the store's <c>_ts</c>, whole seconds, the store's clock) on
    /// both sides, so clock differences between instances and the store cannot leave a reading out. Default 00:00:05;
    /// 00:00:01 to 00:05:00.
    /// </summary>
    public TimeSpan DeviceStateClockMargin { get; set; } = TimeSpan.FromSeconds(5);

    /// <summary>
    /// Batches of one function in a row (any partitions) whose every event failed on its own, from which on it is taken
    /// for the handler's or its environment's fault, not the events': systemic — nothing dead-lettered, the batch kept and
    /// retried, the alarm raised — until a batch commits again. The batches before it are dead-lettered (a lone batch of
    /// poison never stalls its partition). Counted in the process's memory. Default 3; 2 to 100.
    /// </summary>
    public int SystemicAfterWhollyFailedBatches { get; set; } = 3;
}
