namespace SensorPipeline.Telemetry.Tests;

/// <summary>A clock that says what the test says (the handler stamps "written" with it), timers run on real time.</summary>
internal sealed class FixedClock(DateTimeOffset now) : TimeProvider
{
    public DateTimeOffset Now { get; set; } = now;

    public override DateTimeOffset GetUtcNow() => Now;
}
