namespace SensorPipeline.Stack.Chaos;

/// <summary>What an injection needs: the running stack, the run's randomness and how long the phase's load lasts.</summary>
public sealed record FaultContext(LocalPipeline Pipeline, Random Random, TimeSpan PhaseLoad);

/// <summary>
/// One fault of the matrix. A fault either acts on the stack at chosen moments (<see cref="InjectAsync"/>: returns once
/// the fault is over — the process restarted, the store thawed, the storm passed — so recovery is measured from then),
/// or lives in the load itself (<see cref="LoadArguments"/>: poison, malformed sends, skewed clocks), or both.
/// </summary>
/// <param name="Name">Its name in the table and for <c>--faults</c>.</param>
/// <param name="Description">What it does, printed when its phase starts.</param>
/// <param name="InjectAsync">Injects it once and returns when it is over; null for faults carried by the load.</param>
/// <param name="LoadArguments">Extra loadgen arguments for the phase, given the number of injections asked for.</param>
/// <param name="ExpectsDeadLetters">True when the phase's load carries injected bad input that must be dead-lettered.</param>
public sealed record ChaosFault(
    string Name,
    string Description,
    Func<FaultContext, CancellationToken, Task>? InjectAsync,
    Func<int, IReadOnlyList<string>> LoadArguments,
    bool ExpectsDeadLetters = false);
