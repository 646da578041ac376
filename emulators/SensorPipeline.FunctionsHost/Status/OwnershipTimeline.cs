namespace SensorPipeline.FunctionsHost.Status;

/// <summary>The <c>/status/functions/ownership</c> document: <paramref name="Recording"/> false when this devhost runs
/// the single in-process host (it owns every partition, nothing moves, there is no history); else per function its
/// ownership over the last <paramref name="WindowSeconds"/> in bins of <paramref name="BinSeconds"/>, from samples taken
/// every <paramref name="IntervalSeconds"/>.</summary>
public sealed record OwnershipTimeline(bool Recording, DateTimeOffset Now, double IntervalSeconds, double WindowSeconds, double BinSeconds, IReadOnlyList<FunctionOwnershipTimeline> Functions)
{
    /// <summary>Bins <paramref name="before"/> + <paramref name="samples"/> (oldest first; <paramref name="names"/> in
    /// the samples' function order) into bins of <paramref name="bin"/> aligned to the epoch, as the telemetry summary
    /// aligns its timeline.</summary>
    internal static OwnershipTimeline Build(DateTimeOffset now, TimeSpan interval, TimeSpan window, TimeSpan bin, IReadOnlyList<string> names,
        OwnershipSample? before, IReadOnlyList<OwnershipSample> samples)
    {
        var functions = new List<FunctionOwnershipTimeline>(names.Count);
        for (var f = 0; f < names.Count; f++)
        {
            // Owners in order of first appearance, so an instance keeps its colour while the window slides over others.
            var legend = new List<string>();
            var index = new Dictionary<string, int>(StringComparer.Ordinal);
            int Index(string? owner)
            {
                if (owner is null)
                {
                    return -1;
                }

                if (!index.TryGetValue(owner, out var slot))
                {
                    slot = index[owner] = legend.Count;
                    legend.Add(owner);
                }

                return slot;
            }

            var bins = new List<OwnershipBin>();
            var baseline = before is not null && f < before.Functions.Count ? before.Functions[f].Changes : (long?)null;
            var i = 0;
            while (i < samples.Count)
            {
                var start = Floor(samples[i].Time, bin);
                int min = int.MaxValue, max = 0;
                FunctionOwnership? last = null;
                for (; i < samples.Count && Floor(samples[i].Time, bin) == start; i++)
                {
                    if (f < samples[i].Functions.Count)
                    {
                        last = samples[i].Functions[f];
                        baseline ??= last.Changes;
                        min = Math.Min(min, last.Instances);
                        max = Math.Max(max, last.Instances);
                    }
                }

                if (last is null)
                {
                    continue;
                }

                bins.Add(new OwnershipBin(start, last.Instances, min, max, last.Changes - baseline!.Value, last.Changes, Array.ConvertAll(last.Owners, Index)));
                baseline = last.Changes;
            }

            var current = samples.Count > 0 && f < samples[^1].Functions.Count ? samples[^1].Functions[f] : null;
            functions.Add(new FunctionOwnershipTimeline(names[f], current?.Owners.Length ?? 0, current?.Instances ?? 0, current?.Changes ?? 0,
                current?.Owners ?? [], legend, bins));
        }

        return new OwnershipTimeline(true, now, interval.TotalSeconds, window.TotalSeconds, bin.TotalSeconds, functions);
    }

    private static DateTimeOffset Floor(DateTimeOffset time, TimeSpan bin) => new(time.UtcTicks - time.UtcTicks % bin.Ticks, TimeSpan.Zero);
}

/// <summary>One function's ownership: now (partitions, instances, cumulative owner changes, the owner of each partition
/// by index, null: none) and per bin; <paramref name="Owners"/> names the owner indexes the bins use, in order of first
/// appearance in the window.</summary>
public sealed record FunctionOwnershipTimeline(string Name, int PartitionCount, int Instances, long OwnershipChanges, IReadOnlyList<string?> CurrentOwners,
    IReadOnlyList<string> Owners, IReadOnlyList<OwnershipBin> Bins);

/// <summary>One bin: instances at its last sample and the least and most within it; the owner changes that happened in
/// it and their running total; the owner of each partition at its last sample as an index into the function's
/// <c>owners</c> (-1: no active owner, e.g. while a killed instance's records expire).</summary>
public sealed record OwnershipBin(DateTimeOffset Start, int Instances, int InstancesMin, int InstancesMax, long Changes, long CumulativeChanges, IReadOnlyList<int> Owners);
