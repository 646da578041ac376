using System.CommandLine;
using SensorPipeline.CommandLine;
using SensorPipeline.LoadGen.Cli;

// loadgen: send synthetic readings (root command), verify a run in Cosmos DB (verify), re-send dead letters (redrive).
var root = new RootCommand("SensorPipeline load generator: sends readings through the Event Hubs REST API and verifies none was lost.");
SendCommand.Configure(root);
root.Subcommands.Add(VerifyCommand.Create());
root.Subcommands.Add(RedriveCommand.Create());
// Ctrl+C cancels the action's token; the run then drains in-flight sends (--grace) and writes its ledger, so allow it time.
return await CommandLineProgram.RunAsync("loadgen", root, args, new InvocationConfiguration { ProcessTerminationTimeout = TimeSpan.FromMinutes(2) });
