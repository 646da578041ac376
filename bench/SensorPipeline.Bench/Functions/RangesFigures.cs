using System.Text.Json;

namespace SensorPipeline.Functions.Bench;

/// <summary>
/// Writes what <see cref="RangesBench"/> measured for the splitter's routing to <c>.pipeline/bench-ranges.json</c>, the
/// file <c>./pipeline plan</c> takes the processors' CPU per reading from (infra/SensorPipeline.Plan/Data/RangeCpu.cs;
/// without it, the checked-in ranges.defaults.json): the median of the rounds, with their lowest and highest beside it.
/// Net figures subtract the process's idle CPU over the same wall time.
/// </summary>
internal static class RangesFigures
{
    private static readonly JsonSerializerOptions Indented = new() { WriteIndented = true };

    public static async Task<string> WriteAsync(string repoRoot, RangesArguments a, RangesReport report)
    {
        var load = File.Exists("/proc/loadavg") ? (await File.ReadAllTextAsync("/proc/loadavg")).Split(' ')[0] : "unknown";
        var measured = string.Create(CultureInfo.InvariantCulture,
            $"./pipeline bench functions ranges --ranges {a.Ranges} --partitions {a.Partitions} --owned {a.Owned} --invocation {a.Invocation} --devices {a.Devices} --rounds {a.Rounds}, " +
            $"{DateTimeOffset.UtcNow:yyyy-MM-dd HH:mm} UTC, {Environment.ProcessorCount} cores at load average {load}, idle {report.Idle * 1000:F0} ms per second; the median of {a.Rounds} rounds");
        var figures = new
        {
            about = "Written by ./pipeline bench functions ranges: a processor instance's handler CPU per reading at 1 and at many partition key ranges, its devices by the splitter's routing; read by ./pipeline plan.",
            measured,
            ranges = a.Ranges,
            partitions = a.Partitions,
            owned = a.Owned,
            invocationReadings = a.Invocation,
            oneRange = Figures(report.OneRangeNet, report.OneRangeGross, report.OneRangeOperations),
            manyRanges = Figures(report.ManyRangesNet, report.ManyRangesGross, report.ManyRangesOperations),
            targets = new { netMicrosAtMost = RangesReport.NetMicrosTarget, netMet = report.NetMet, operationsPerBulkRequestAtLeast = RangesReport.OperationsTarget, operationsMet = report.OperationsMet },
        };
        var directory = Path.Combine(repoRoot, ".pipeline");
        Directory.CreateDirectory(directory);
        var file = Path.Combine(directory, "bench-ranges.json");
        await File.WriteAllTextAsync(file, JsonSerializer.Serialize(figures, Indented) + Environment.NewLine);
        return file;
    }

    private static object Figures(Spread net, Spread gross, Spread operations) => new
    {
        netMicros = Math.Round(net.Median, 1),
        grossMicros = Math.Round(gross.Median, 1),
        operationsPerBulkRequest = Math.Round(operations.Median, 1),
        spread = new { netMicros = new[] { Math.Round(net.Lowest, 1), Math.Round(net.Highest, 1) }, operationsPerBulkRequest = new[] { Math.Round(operations.Lowest, 1), Math.Round(operations.Highest, 1) } },
    };
}
