namespace SensorPipeline.LoadGen.Sending;

/// <summary>How the sender talks to the hub (a subset of the run options, so the sender can be tested alone).</summary>
/// <param name="Concurrency">Sends in flight at most; also the connection pool's size.</param>
/// <param name="MaxAttempts">HTTP attempts per event before giving up on transient failures.</param>
/// <param name="BaseBackoff">First retry's delay; doubles per attempt, with jitter.</param>
/// <param name="MaxBackoff">Cap on one retry delay (also caps a Retry-After the service asks for).</param>
/// <param name="AttemptTimeout">One HTTP attempt's timeout.</param>
internal sealed record SenderSettings(int Concurrency, int MaxAttempts, TimeSpan BaseBackoff, TimeSpan MaxBackoff, TimeSpan AttemptTimeout);
