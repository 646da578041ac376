using SensorPipeline.Core.Readings;

namespace SensorPipeline.Plan.Model;

/// <summary>
/// Flex Consumption: instances from CPU per reading at a utilisation target, all of them always ready (a flat load
/// keeps them executing, and an always-ready GB-s costs less than an on-demand one); host.json batching as large as
/// the instance memory allows with one instance per always-ready share of the partitions; target-based scaling by
/// backlog, so instances follow the lag instead of the partition count.
/// </summary>
internal static class FunctionsPlanner
{
    /// <summary>Share of an instance's cores the steady load may use; the rest absorbs bursts and GC.</summary>
    public const double CpuUtilisation = 0.70;

    /// <summary>Seconds of the planned rate's events whose backlog asks for the steady instance count.</summary>
    public const double TargetLagSeconds = 5;

    /// <summary>How long a partition waits to fill a batch once batches are larger than 2 (host.json maxWaitTime).</summary>
    public static readonly TimeSpan FillWait = TimeSpan.FromSeconds(1);

    // Instance memory per docs/bounded-work.md: ~400 MB of runtimes, and per partition in
    // flight ~14.5 MB per event of the batch (prefetch 2 x 1 MB, host 9 MB, handler 3.5 MB, for 1 MB events), within
    // 85 % of the instance's memory. Batches stay at most 16: a processor invocation then holds <= 4,000 readings.
    private const double RuntimeMB = 400;
    private const double PerEventInFlightMB = 14.5;
    private const double MemoryBudget = 0.85;
    private const int BatchCap = 16;
    private const int DefaultBatch = 2;

    public static FunctionsPlan Plan(PlanRequest request, ReadingCosts costs, PriceBook book, int partitions)
    {
        // The host's CPU per reading is for both hops together: half for the splitter's, half for a processor's.
        var hostPerHop = costs.HostCpuMicros / 2;
        var kinds = SensorKindCatalog.Default.All;
        var splitterVcpu = request.Rate * (costs.SplitterCpuMicros + hostPerHop) / 1e6;
        var processorVcpu = request.Rate / kinds.Count * (costs.ProcessorCpuMicros + hostPerHop) / 1e6;
        var memory = Math.Max(splitterVcpu, processorVcpu) / CpuUtilisation > book.Limit("functions.flex.coresPer2048MB") ? 4096 : 2048;
        var cores = book.Limit("functions.flex.coresPer2048MB") * memory / 2048;
        var splitterInstances = Instances(splitterVcpu, cores, partitions);
        var processorInstances = Instances(processorVcpu, cores, partitions);
        var batch = Math.Min(LargestBatch(splitterInstances, partitions, memory), LargestBatch(processorInstances, partitions, memory));
        batch = Math.Min(batch, Core.PipelineLimits.MaxEventBatchSize);

        var flow = EventFlow.Of(request.Rate, request.ReadingsPerEvent, request.Devices, partitions, batch);

        var gbSecond = book.Price("functions.flex.alwaysReadyBaselineGbSecond") + book.Price("functions.flex.alwaysReadyExecutionGbSecond");
        double Cost(int instances) => instances * memory / 1024.0 * 3600 * gbSecond;
        var functions = new List<FunctionPlan>
        {
            new("Splitter", "ingestion", request.Rate, splitterVcpu, splitterInstances, flow.IngestionEvents, flow.SplitterBatch, flow.SplitterInvocations, Cost(splitterInstances)),
        };
        foreach (var kind in kinds)
        {
            functions.Add(new(kind.Processor, kind.Hub, request.Rate / kinds.Count, processorVcpu, processorInstances, flow.EnvelopeEventsPerHub, flow.ProcessorBatch, flow.EnvelopeEventsPerHub / flow.ProcessorBatch, Cost(processorInstances)));
        }

        var batching = new Batching(
            batch,
            batch > DefaultBatch ? batch : 1,
            batch > DefaultBatch ? FillWait : TimeSpan.FromSeconds(5),
            batch * 2,
            1,
            TargetThreshold(functions, batch));
        var (maximum, note) = MaximumInstances(functions, partitions, cores, book);
        if (Math.Max(splitterVcpu, processorVcpu) / CpuUtilisation / cores > partitions)
        {
            note = $"{note}a function needs more instances than its hub has partitions ({partitions}): more partitions or less CPU per reading. ".TrimStart();
        }

        var executions = functions.Sum(f => f.InvocationsPerSecond) * 3600 / 1e6 * book.Price("functions.flex.millionExecutions");
        return new FunctionsPlan(memory, cores, maximum, batching, functions, executions, string.IsNullOrEmpty(note) ? null : note.Trim(), flow);
    }

    private static int Instances(double vcpu, double cores, int partitions) =>
        (int)Math.Clamp(Math.Ceiling(vcpu / CpuUtilisation / cores), 1, partitions);

    /// <summary>The largest batch whose worst case fits: each always-ready instance owning its share of the partitions.</summary>
    private static int LargestBatch(int instances, int partitions, int memoryMB)
    {
        var partitionsPerInstance = Math.Ceiling((double)partitions / instances);
        var batch = DefaultBatch;
        while (batch * 2 <= BatchCap && RuntimeMB + (partitionsPerInstance * batch * 2 * PerEventInFlightMB) <= MemoryBudget * memoryMB)
        {
            batch *= 2;
        }

        return batch;
    }

    /// <summary>Events per invocation of a partition. Above the default batch the plan sets minEventBatchSize to the
    /// batch, so the host waits up to <see cref="FillWait"/> for it: an invocation holds what a partition receives in
    /// that time (at least 1, at most the batch). At the default batch, minEventBatchSize is 1 and the host dispatches as
    /// soon as one event is there: at the low rates the plan picks that batch for, an invocation holds one event
    /// (`./pipeline bench cost` counted 1.0 per invocation at 1,000 readings/s with host.json as shipped).</summary>
    public static double EventsPerInvocation(double eventsPerSecond, int partitions, int batch) =>
        batch <= DefaultBatch ? 1 : Math.Clamp(eventsPerSecond / partitions * FillWait.TotalSeconds, 1, batch);

    /// <summary>A backlog of TargetLagSeconds of a function's events asks for its steady instance count (never below the batch).</summary>
    private static int TargetThreshold(IEnumerable<FunctionPlan> functions, int batch) =>
        Math.Max(batch, (int)Math.Ceiling(functions.Min(f => f.EventsPerSecond * TargetLagSeconds / f.Instances)));

    /// <summary>Room for every function to scale to one instance per partition in a backlog, within the regional core quota.</summary>
    private static (int Maximum, string Note) MaximumInstances(List<FunctionPlan> functions, int partitions, double cores, PriceBook book)
    {
        var wanted = functions.Count * partitions;
        var quota = (int)(book.Limit("functions.flex.regionalCoreQuota") / cores);
        var steady = functions.Sum(f => f.Instances);
        var maximum = Math.Max(steady, Math.Min(wanted, quota));
        var note = maximum < wanted ? $"maximumInstanceCount {maximum}: the default regional quota of {book.Limit("functions.flex.regionalCoreQuota"):N0} cores caps a backlog below one instance per partition ({wanted}); ask for more quota. " : "";
        if (steady * cores > book.Limit("functions.flex.regionalCoreQuota"))
        {
            note += $"the steady load alone needs {steady * cores:N0} cores, above the default regional quota of {book.Limit("functions.flex.regionalCoreQuota"):N0}: a quota increase is needed first. ";
        }

        var clamped = (int)Math.Clamp(maximum, book.Limit("functions.flex.minMaximumInstanceCount"), book.Limit("functions.flex.maxInstanceCount"));
        return (clamped, note);
    }
}
