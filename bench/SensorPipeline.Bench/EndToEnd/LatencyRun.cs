namespace SensorPipeline.EndToEnd.Bench;

/// <summary>A latency run of <c>bench e2e</c>: loadgen at <paramref name="Fraction"/> of the chain's ceiling, and the
/// end-to-end P99 and max it is judged against (<see cref="Targets.Latency"/>).</summary>
/// <param name="Label">How the tables name it: "half the ceiling".</param>
/// <param name="Slug">Its run folder's and loadgen ledger's name.</param>
/// <param name="Fraction">The share of the ceiling's readings/s loadgen offers.</param>
/// <param name="P99">The bound on the run's end-to-end P99, ms.</param>
/// <param name="Max">The bound on the run's end-to-end maximum, ms.</param>
internal sealed record LatencyTarget(string Label, string Slug, double Fraction, BenchTarget P99, BenchTarget Max);

/// <summary>What one latency run measured, at <paramref name="Rate"/> readings/s offered.</summary>
internal sealed record LatencyRun(LatencyTarget Target, double Rate, PhaseFigures Figures);
