using System.Globalization;
using SensorPipeline.Plan.Model;

namespace SensorPipeline.Plan.Output;

/// <summary>Every input of a plan with where it comes from: the command that measured it, or the rule and its source,
/// or "assumed". The per-reading costs first, then what the plan derives from the product's own code and the limits.</summary>
internal static class PlanInputs
{
    public static void Write(TextWriter o, PlanResult plan, PriceBook book)
    {
        o.WriteLine("inputs (value: origin):");
        foreach (var (key, value, source) in plan.Costs.Entries)
        {
            o.WriteLine($"  {key} = {value.ToString("0.####", CultureInfo.InvariantCulture)}: {source}");
        }

        var r = plan.Request;
        var env = plan.Functions.Envelopes;
        var partitions = plan.EventHubs.PartitionsPerHub;
        o.WriteLine($"  envelopes = {env.EnvelopesPerInvocation:N1} per splitter invocation, {env.ReadingsPerEnvelope:N1} readings and {env.EnvelopeBytesPerReading:N1} B per reading each: " +
            $"core's Splitter (DevicePartitioner, envelope writer) run over {env.EventsPerInvocation:N2} ingestion events of {r.ReadingsPerEvent} readings ({env.ReadingsPerInvocation:N0} readings, every kind), " +
            $"{partitions} partitions per hub, devices drawn from {r.Devices:N0} (EnvelopeShape): one envelope per target partition and kind of each invocation");
        var processor = plan.Functions.Processor;
        o.WriteLine($"  processor hub events = {processor.EventsPerSecond:N0}/s per hub, {processor.EventsPerInvocation:N2} per processor invocation: splitter invocations/s x envelopes per invocation / {plan.Functions.Kinds} hubs; batches filled for {FunctionsPlanner.FillWait.TotalSeconds:0} s up to {plan.Functions.Batching.MaxEventBatchSize}");
        var readings = plan.Cosmos.Container("readings");
        var ru = book.LimitEntry("cosmos.maxRuPerPhysicalPartition");
        var gb = book.LimitEntry("cosmos.maxGbPerPhysicalPartition");
        o.WriteLine($"  readings physical partitions = {readings.PhysicalPartitions:N0}: the larger of {readings.DeployedRu:N0} RU/s / {ru.Value:N0} and {readings.StorageGb:N0} GB / {gb.Value:N0} (data + index), rounded up ({ru.Source}, {ru.Date})");
        o.WriteLine($"  index storage = {plan.Costs.IndexBytesPerReading:N0} B per reading: index.termsPerReading x bytes.indexPerTerm, an ASSUMPTION (not measured) included in storage and partitions");
    }
}
