using SensorPipeline.Core.Bench;
using SensorPipeline.CosmosEmulator.Bench;
using SensorPipeline.EndToEnd.Bench;
using SensorPipeline.EventHubs.Bench;
using SensorPipeline.Functions.Bench;
using SensorPipeline.FunctionsHost.Bench;

namespace SensorPipeline.Bench;

/// <summary>Every bench, as a subcommand of the one program, in the order <c>bench --help</c> lists them.</summary>
internal static class BenchCommands
{
    public static RootCommand Root()
    {
        var root = new RootCommand("SensorPipeline's benchmarks, one subcommand each (./pipeline bench NAME runs bench NAME). Figures are measured on this machine, shared or not: each bench prints the load average.");
        Command[] benches =
        [
            CoreBench.Command(),
            .. FunctionsCommands.Commands(),
            .. EndToEndBench.Commands(),
            EventHubsCommand.Command(),
            CosmosBench.Command(),
            FunctionsHostBench.Command(),
        ];
        foreach (var bench in benches)
        {
            root.Subcommands.Add(bench);
        }

        return root;
    }
}
