namespace SensorPipeline.EndToEnd.Bench;

/// <summary>The handler's device-state writes over the measured phase and the largest lag from a reading being stored
/// (handed over) to its device state being durable (the measured W; the handler's maximum since it started).</summary>
internal sealed record DeviceStateFigures(long Written, long Superseded, long DeadLettered, long MaxLagMs);
