using System.Text.Json;

namespace SensorPipeline.Plan.Data;

/// <summary>
/// A processor's handler CPU per reading at one partition key range and at many, as <c>./pipeline bench functions
/// ranges</c> measures it (one instance's write path, its devices by the splitter's routing) and writes it to
/// <c>.pipeline/bench-ranges.json</c>; without that file, the checked-in <c>ranges.defaults.json</c> with its origin.
/// The plan takes the many-range figure for a <c>readings</c> container of more than one physical partition (per
/// reading, CPU grows with the ranges an instance's writes spread over, so below the measured count it is the
/// conservative figure, above it an extrapolation the output says so), the one-range figure for a single partition.
/// </summary>
/// <param name="Ranges">The many-range count measured (827 in the checked-in file: the plan's count at 100,000 readings/s before index storage was counted).</param>
/// <param name="OneRangeNetMicros">CPU µs per reading at one range, net of the bench process's idle.</param>
/// <param name="ManyRangesNetMicros">CPU µs per reading at <paramref name="Ranges"/> ranges, net of idle: the plan's figure.</param>
/// <param name="ManyRangesGrossMicros">The same, gross (idle included): the sensitivity's upper row.</param>
/// <param name="Origin">The command, date and machine load it was measured with, and the file read.</param>
internal sealed record RangeCpu(int Ranges, double OneRangeNetMicros, double ManyRangesNetMicros, double ManyRangesGrossMicros, string Origin)
{
    /// <summary>The figure for a readings container of <paramref name="physicalPartitions"/> partitions, and why.</summary>
    public (double Micros, string Why) For(int physicalPartitions) => physicalPartitions <= 1
        ? (OneRangeNetMicros, "one physical partition: the one-range figure")
        : (ManyRangesNetMicros, physicalPartitions <= Ranges
            ? $"{physicalPartitions:N0} physical partitions: the {Ranges:N0}-range figure (conservative below {Ranges:N0})"
            : $"{physicalPartitions:N0} physical partitions: the {Ranges:N0}-range figure, EXTRAPOLATED (more ranges than measured; run ./pipeline bench functions ranges --ranges {Math.Min(1024, physicalPartitions)})");

    /// <summary>Reads <paramref name="benchFile"/> when it exists, else <paramref name="defaultsFile"/>.</summary>
    public static RangeCpu Load(string defaultsFile, string benchFile)
    {
        var file = File.Exists(benchFile) ? benchFile : defaultsFile;
        if (!File.Exists(file))
        {
            throw new PlanDataException($"{defaultsFile} does not exist (the processor CPU per reading by partition key ranges).");
        }

        using var doc = JsonDocument.Parse(File.ReadAllText(file));
        var root = doc.RootElement;
        double Micros(string contender, string measure) =>
            root.TryGetProperty(contender, out var c) ? DataFile.Number(c, measure, file, contender) : throw new PlanDataException($"{file}: '{contender}' must be an object.");
        var ranges = (int)DataFile.Number(root, "ranges", file);
        var measured = DataFile.String(root, "measured", file);
        return new RangeCpu(ranges, Micros("oneRange", "netMicros"), Micros("manyRanges", "netMicros"), Micros("manyRanges", "grossMicros"), $"{measured} ({file})");
    }
}
