namespace SensorPipeline.Functions.DeviceStates;

/// <summary>
/// <c>GET /status/device-states</c>: what this process owes the store and has written — device states pending, the mark's
/// instant (every reading stored before it has its state durable), other instances' marks not yet recovered, writes,
/// and the largest lag from a reading's storing to its state being durable (the measured W). What a check waits on before
/// it reads <c>devices</c>, instead of sleeping.
/// </summary>
internal static class DeviceStateEndpoints
{
    public static IEndpointRouteBuilder MapDeviceStateStatus(this IEndpointRouteBuilder app)
    {
        app.MapGet("/status/device-states", (PendingDeviceStates pending, PendingStatesMarks marks, DeviceStateRecovery recovery, DeviceStateStatus status) =>
            Results.Json(new
            {
                pending = pending.Count,
                storedBeforeUnixMs = pending.StoredBefore(),
                markId = marks.Id,
                unrecoveredMarks = recovery.Unrecovered,
                written = status.Written,
                superseded = status.Superseded,
                deadLettered = status.DeadLettered,
                failed = status.Failed,
                maxLagMs = status.MaxLagMs,
            }));
        return app;
    }
}
