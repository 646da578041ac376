using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Diagnosers;
using BenchmarkDotNet.Exporters;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Loggers;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;
using BenchmarkDotNet.Toolchains.InProcess.Emit;

namespace SensorPipeline.Core.Bench;

/// <summary>
/// <c>./pipeline bench core [--quick]</c>: the CPU path decode → validate → staleness → GeoJSON bytes, ours beside the
/// naive path, on BenchmarkDotNet in this process (its in-process toolchain: the bench program is the host) with a
/// short job and its MemoryDiagnoser, so time and bytes allocated are per reading as BenchmarkDotNet measures them, not
/// counted by hand. <c>--quick</c>: one warm-up and three iterations of 100 ms, to see that it runs, not for figures.
/// </summary>
internal static class CoreBench
{
    /// <summary>The targets the figures are read against.</summary>
    private const double TargetReadingsPerSecond = 1_000_000, TargetBytesPerReading = 64;

    public static Command Command()
    {
        var quick = new Option<bool>("--quick") { Description = "One warm-up and three 100 ms iterations: proves it runs; not for figures." };
        var command = new Command("core", "The CPU path: decode, staleness, GeoJSON bytes, ours beside the naive path (BenchmarkDotNet); ns and bytes per reading.") { quick };
        command.SetAction((parse, token) => BenchRun.RunAsync("core", _ => Task.FromResult(Run(parse.GetValue(quick))), token));
        return command;
    }

    private static int Run(bool quick)
    {
        var job = (quick ? Job.ShortRun.WithWarmupCount(1).WithIterationCount(3).WithIterationTime(Perfolizer.Horology.TimeInterval.FromMilliseconds(100)) : Job.ShortRun)
            .WithToolchain(InProcessEmitToolchain.Instance)
            .WithId(quick ? "quick" : "short");
        var config = ManualConfig.CreateEmpty()
            .AddJob(job)
            .AddDiagnoser(MemoryDiagnoser.Default)
            .AddColumnProvider(DefaultColumnProviders.Instance)
            .AddLogger(ConsoleLogger.Default)
            .AddExporter(MarkdownExporter.GitHub)
            .WithArtifactsPath(Path.Combine(RepoLayout.Current.Root, ".pipeline", "bench", "core"));
        var summary = BenchmarkRunner.Run<CorePathBenchmarks>(config);
        return Verdict(summary);
    }

    /// <summary>Each path's readings/s on one core and bytes per reading against the targets; 1 when a benchmark failed.</summary>
    private static int Verdict(Summary summary)
    {
        Console.WriteLine();
        var failed = false;
        foreach (var report in summary.Reports)
        {
            if (!report.Success || report.ResultStatistics is null)
            {
                Console.WriteLine($"{report.BenchmarkCase.Descriptor.WorkloadMethodDisplayInfo}: no result");
                failed = true;
                continue;
            }

            var perSecond = 1e9 / report.ResultStatistics.Mean;
            var bytes = report.GcStats.GetBytesAllocatedPerOperation(report.BenchmarkCase) ?? 0;
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"{report.BenchmarkCase.Descriptor.WorkloadMethodDisplayInfo}: {perSecond:N0} readings/s on 1 core, {bytes:N0} bytes allocated per reading"));
        }

        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"Targets (ours): >= {TargetReadingsPerSecond:N0} readings/s per core and <= {TargetBytesPerReading:N0} bytes allocated per reading in steady state."));
        return failed ? ExitCodes.Failed : ExitCodes.Ok;
    }
}
