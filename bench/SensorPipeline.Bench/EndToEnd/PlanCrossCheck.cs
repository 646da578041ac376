using SensorPipeline.Core.Readings;
using SensorPipeline.Plan.Model;

namespace SensorPipeline.EndToEnd.Bench;

/// <summary>
/// The plan's arithmetic at the bench's own rate, batch, devices and partitions against what the chain did: envelope
/// events per reading (core's splitter through the plan's <see cref="EnvelopeShape"/>) and executions per reading (the
/// plan's batch filling). The two must agree within <see cref="Tolerance"/>; the bench prints met or MISSED.
/// </summary>
internal static class PlanCrossCheck
{
    /// <summary>How far the plan may be from the chain, either way.</summary>
    public const double Tolerance = 0.15;

    /// <summary>host.json as shipped, which the bench's chain runs: maxEventBatchSize.</summary>
    private const int ShippedBatch = 2;

    private const int ReadingsPerEvent = 200;

    public static void Write(TextWriter o, PhaseFigures phase, double rate, int devicesPerKind)
    {
        if (phase.Readings == 0 || phase.SplitterInvocations == 0 || phase.ProcessorPartitions == 0)
        {
            o.WriteLine("  plan cross-check: nothing to compare (no readings or no splitter invocations counted)");
            return;
        }

        var partitions = phase.ProcessorPartitions;
        var devices = (double)devicesPerKind * SensorKindCatalog.Default.All.Count;
        var flow = EventFlow.Of(rate, ReadingsPerEvent, devices, partitions, ShippedBatch);
        var shape = flow.Envelopes;

        o.WriteLine($"  plan cross-check at the bench's {rate:N0} readings/s, batch {ShippedBatch} (host.json as shipped), {partitions} partitions per hub, {devices:N0} devices (agree within ±{Tolerance:P0}):");
        Line(o, "envelope events per reading", shape.EnvelopesPerReading, (double)phase.EnvelopeEvents / phase.Readings,
            $"plan: {flow.SplitterBatch:N2} events per splitter invocation -> {shape.EnvelopesPerInvocation:N1} envelopes of {shape.ReadingsPerEnvelope:N1} readings; chain: {phase.EnvelopeEvents:N0} enqueued");
        Line(o, "executions per reading", flow.Executions / rate, (double)phase.Invocations / phase.Readings,
            $"plan: {flow.SplitterInvocations:N2} splitter + {flow.ProcessorInvocations:N2} processor invocations/s; chain: {phase.Invocations:N0} ({phase.SplitterInvocations:N0} splitter)");
    }

    private static void Line(TextWriter o, string what, double planned, double measured, string detail)
    {
        var gap = measured > 0 ? (planned / measured) - 1 : double.PositiveInfinity;
        o.WriteLine($"    {what}: plan {planned:N4}, chain {measured:N4}, {gap:+0.0%;-0.0%}  {(Math.Abs(gap) <= Tolerance ? "met" : "MISSED")} ({detail})");
    }
}
