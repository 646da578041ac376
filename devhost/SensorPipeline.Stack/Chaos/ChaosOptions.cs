namespace SensorPipeline.Stack.Chaos;

/// <summary>What a chaos run does: which faults, how long under load, how hard.</summary>
public sealed class ChaosOptions
{
    /// <summary>Minutes of load over the whole run, shared by the faults (each gets its own phase). Default 10; the test
    /// suite's run uses about 1.5. From 0.5 to 600.</summary>
    public double Minutes { get; init; } = 10;

    /// <summary>Readings per second during every phase. Default 600: well within what the local stack sustains on two
    /// cores while faults are injected, so a stall is the fault's, not the load's.</summary>
    public int Rate { get; init; } = 600;

    /// <summary>Devices of each kind of sensor-kinds.json per phase. Default 20.</summary>
    public int DevicesPerKind { get; init; } = 20;

    /// <summary>Only these faults (their names, see <see cref="ChaosFaults"/>); empty = all.</summary>
    public IReadOnlyList<string> Only { get; init; } = [];

    /// <summary>Random seed for the injection points and fault lengths, printed so a run can be repeated.</summary>
    public int Seed { get; init; } = Environment.TickCount;

    /// <summary>Shortest load per phase, so even a short run has room for one injection and its recovery.</summary>
    public static readonly TimeSpan MinimumPhase = TimeSpan.FromSeconds(5);
}
