using SensorPipeline.Core.Telemetry;

namespace SensorPipeline.Functions.DeviceStates;

/// <summary>
/// What the device-state writes did since the process started, for <c>GET /status/device-states</c>: states written,
/// superseded and dead-lettered, and the largest lag seen from a reading's storing (its invocation's start) to its
/// device state being durable — the measured W.
/// </summary>
internal sealed class DeviceStateStatus
{
    private long _written;
    private long _superseded;
    private long _deadLettered;
    private long _failed;
    private long _maxLagMs;

    public long Written => Interlocked.Read(ref _written);

    public long Superseded => Interlocked.Read(ref _superseded);

    public long DeadLettered => Interlocked.Read(ref _deadLettered);

    public long Failed => Interlocked.Read(ref _failed);

    public long MaxLagMs => Interlocked.Read(ref _maxLagMs);

    public void Add(StateWriteTally tally)
    {
        Interlocked.Add(ref _written, tally.Written);
        Interlocked.Add(ref _superseded, tally.Superseded);
        Interlocked.Add(ref _deadLettered, tally.DeadLettered);
        Interlocked.Add(ref _failed, tally.Failed);
    }

    /// <summary>A state became durable <paramref name="lagMs"/> after its earliest uncovered reading began storing.</summary>
    public void Durable(long lagMs) => InterlockedMax.Raise(ref _maxLagMs, lagMs);
}
