using SensorPipeline.Core.Readings;

namespace SensorPipeline.Plan.Model;

/// <summary>
/// Events and invocations per second through the chain at a rate and batch, as the plan counts them. The splitter reads
/// ingestion events, filled for <see cref="FunctionsPlanner.FillWait"/>; its envelopes, one per target partition and kind
/// of each invocation as core's splitter cuts them (<see cref="EnvelopeShape"/>), feed the processors: an equal share to
/// each kind's hub of the kind list. The plan and <c>bench cost</c>'s cross-check both read it, so the bench checks the
/// plan's own arithmetic.
/// </summary>
internal sealed record EventFlow(double IngestionEvents, double SplitterBatch, double SplitterInvocations, EnvelopeShape Envelopes, int Kinds,
    double EnvelopeEventsPerHub, double ProcessorBatch)
{
    /// <summary>Processor invocations per second over every kind's hub.</summary>
    public double ProcessorInvocations => Kinds * EnvelopeEventsPerHub / ProcessorBatch;

    /// <summary>Invocations per second of every function together.</summary>
    public double Executions => SplitterInvocations + ProcessorInvocations;

    /// <param name="rate">Readings per second.</param>
    /// <param name="readingsPerEvent">Readings in one ingestion event.</param>
    /// <param name="devices">Devices sending, over every kind.</param>
    /// <param name="partitions">Partitions of each hub.</param>
    /// <param name="batch">host.json's maxEventBatchSize.</param>
    public static EventFlow Of(double rate, int readingsPerEvent, double devices, int partitions, int batch)
    {
        var ingestion = rate / readingsPerEvent;
        var splitterBatch = FunctionsPlanner.EventsPerInvocation(ingestion, partitions, batch);
        var splitterInvocations = ingestion / splitterBatch;
        var envelopes = EnvelopeShape.Of(splitterBatch, readingsPerEvent, devices, partitions);
        var kinds = SensorKindCatalog.Default.All.Count;
        var perHub = splitterInvocations * envelopes.EnvelopesPerInvocation / kinds;
        return new EventFlow(ingestion, splitterBatch, splitterInvocations, envelopes, kinds, perHub, FunctionsPlanner.EventsPerInvocation(perHub, partitions, batch));
    }
}
