using SensorPipeline.Core.Readings;

namespace SensorPipeline.Plan.Model;

/// <summary>
/// Event Hubs: one namespace carries the ingestion hub and one hub per sensor kind, and every reading is ingressed twice
/// (ingestion, then its kind's hub as part of an envelope). Standard while its 40 throughput units carry the load (far cheaper per MB/s),
/// else Premium; beyond one Premium namespace (16 processing units) the rate is plan-only.
/// </summary>
internal static class EventHubsPlanner
{
    /// <summary>Capacity above the demand, on throughput and processing units alike.</summary>
    public const double Headroom = 0.20;

    /// <summary>Bytes per decimal MB: Event Hubs states its limits in MB/s.</summary>
    private const double MB = 1_000_000;

    private static int KindHubs => SensorKindCatalog.Default.All.Count;

    /// <summary>The ingestion hub and one hub per kind of sensor.</summary>
    public static int Hubs => 1 + KindHubs;

    /// <summary>The tier and partitions, from bytes alone (events per second need the batching, which needs the partitions);
    /// <paramref name="envelopeBytesPerReading"/>: what the splitter writes per reading (<see cref="EnvelopeShape"/>).</summary>
    public static (string Tier, int Capacity, int Partitions, string? PlanOnly) ChooseTier(PlanRequest request, ReadingCosts costs, PriceBook book, double envelopeBytesPerReading)
    {
        var ingestionMBps = request.Rate * costs.ReadingBytes / MB;
        var envelopeMBps = request.Rate * envelopeBytesPerReading / MB;
        var ingressMBps = ingestionMBps + envelopeMBps;
        var standardTu = (int)Math.Ceiling(Math.Max(
            ingressMBps * (1 + Headroom) / book.Limit("eventHubs.throughputUnit.ingressMBps"),
            ingressMBps * (1 + Headroom) / book.Limit("eventHubs.throughputUnit.egressMBps")));
        var standardPartitions = (int)book.Limit("eventHubs.standard.maxPartitionsPerHub");
        if (standardTu <= book.Limit("eventHubs.standard.maxThroughputUnits"))
        {
            return ("Standard", Math.Max(1, standardTu), standardPartitions, null);
        }

        // Premium: ~1 MB/s per partition for the busiest hub, at least Standard's 32, at most 100 per hub.
        var busiestHubMBps = Math.Max(ingestionMBps, envelopeMBps / KindHubs);
        var partitions = (int)Math.Clamp(Math.Ceiling(busiestHubMBps * (1 + Headroom) / book.Limit("eventHubs.partition.ingressMBps")),
            standardPartitions, book.Limit("eventHubs.premium.maxPartitionsPerHub"));
        var puForBytes = ingressMBps * (1 + Headroom) / book.Limit("eventHubs.premium.ingressMBpsPerProcessingUnit");
        var puForPartitions = (double)Hubs * partitions / book.Limit("eventHubs.premium.partitionsPerProcessingUnit");
        var needed = (int)Math.Ceiling(Math.Max(puForBytes, puForPartitions));
        var sizes = book.LimitValues("eventHubs.premium.processingUnitSizes");
        var largest = (int)sizes.Max();
        if (needed > largest)
        {
            var namespaces = (int)Math.Ceiling((double)needed / largest);
            var reason = $"Event Hubs: {ingressMBps:N0} MB/s in (both hops) needs {needed} processing units at " +
                $"{book.Limit("eventHubs.premium.ingressMBpsPerProcessingUnit"):N0} MB/s each with {Headroom:P0} headroom, and one Premium namespace takes at most {largest} " +
                $"(Standard: {book.Limit("eventHubs.standard.maxThroughputUnits"):N0} TU = {book.Limit("eventHubs.standard.maxThroughputUnits"):N0} MB/s). " +
                $"Way out: an Event Hubs Dedicated cluster (up to 1,024 partitions per hub) after a benchmark, or {namespaces} Premium namespaces with the hubs spread over them; this template deploys one namespace.";
            return ("Premium", needed, partitions, reason);
        }

        return ("Premium", (int)sizes.First(s => s >= needed), partitions, null);
    }

    /// <summary>The namespace once the events per second are known: a Standard TU also caps events (1,000/s in).</summary>
    public static EventHubsPlan Finish(PlanRequest request, ReadingCosts costs, PriceBook book, (string Tier, int Capacity, int Partitions, string? PlanOnly) choice, FunctionsPlan functions)
    {
        var splitter = functions.Function("Splitter");
        var envelopeEvents = functions.Functions.Where(f => f.Name != "Splitter").Sum(f => f.EventsPerSecond);
        var ingressEvents = splitter.EventsPerSecond + envelopeEvents;
        var envelopeBytes = functions.Envelopes.EnvelopeBytesPerReading;
        var ingressMBps = request.Rate * (costs.ReadingBytes + envelopeBytes) / MB;
        var billableEvents = BillableEvents(splitter.EventsPerSecond, request.Rate * costs.ReadingBytes, book)
            + BillableEvents(envelopeEvents, request.Rate * envelopeBytes, book);
        if (choice.Tier == "Standard")
        {
            var tu = Math.Max(choice.Capacity, (int)Math.Ceiling(ingressEvents * (1 + Headroom) / book.Limit("eventHubs.throughputUnit.ingressEventsPerSecond")));
            tu = Math.Max(tu, (int)Math.Ceiling(ingressEvents * (1 + Headroom) / book.Limit("eventHubs.throughputUnit.egressEventsPerSecond")));
            var max = (int)book.Limit("eventHubs.standard.maxThroughputUnits");
            var cost = tu * book.Price("eventHubs.standard.throughputUnitHour") + billableEvents * 3600 / 1e6 * book.Price("eventHubs.standard.ingressMillionEvents");
            return new EventHubsPlan("Standard", tu, Math.Min(max, tu * 2), choice.Partitions, ingressMBps, ingressEvents,
                tu * book.Limit("eventHubs.throughputUnit.ingressMBps"), cost, null);
        }

        var sizes = book.LimitValues("eventHubs.premium.processingUnitSizes");
        var largest = (int)sizes.Max();
        var units = choice.PlanOnly is null ? choice.Capacity : PlanOnlyUnits(choice.Capacity, largest, sizes);
        return new EventHubsPlan("Premium", choice.Capacity, 0, choice.Partitions, ingressMBps, ingressEvents,
            choice.Capacity * book.Limit("eventHubs.premium.ingressMBpsPerProcessingUnit"), units * book.Price("eventHubs.premium.processingUnitHour"), choice.PlanOnly);
    }

    /// <summary>Processing units billed when the load is spread over namespaces of at most the largest size each.</summary>
    private static int PlanOnlyUnits(int needed, int largest, IReadOnlyList<double> sizes)
    {
        var full = needed / largest;
        var rest = needed % largest;
        return (full * largest) + (rest == 0 ? 0 : (int)sizes.First(s => s >= rest));
    }

    /// <summary>Ingress is billed in 64 KB units: an event of up to 64 KB is one.</summary>
    private static double BillableEvents(double eventsPerSecond, double bytesPerSecond, PriceBook book)
    {
        if (eventsPerSecond <= 0)
        {
            return 0;
        }

        var unitsPerEvent = Math.Ceiling(bytesPerSecond / eventsPerSecond / book.Limit("eventHubs.maxBillableEventBytes"));
        return eventsPerSecond * Math.Max(1, unitsPerEvent);
    }
}
