using System.CommandLine;
using SensorPipeline.LoadGen.Cli;

// loadgen: send synthetic readings (root command), verify a run in Cosmos DB (verify), re-send dead letters (redrive).
var root = new RootCommand("SensorPipeline load generator: sends readings through the Event Hubs REST API and verifies none was lost.");
SendCommand.Configure(root);
root.Subcommands.Add(VerifyCommand.Create());
root.Subcommands.Add(RedriveCommand.Create());
var parse = root.Parse(args);
if (parse.Errors.Count > 0)
{
    // Bad command line: say what is wrong and exit 2 (as for invalid option values), nothing sent or read.
    foreach (var error in parse.Errors)
    {
        await Console.Error.WriteLineAsync("loadgen: " + error.Message);
    }

    return ExitCodes.BadArguments;
}

// Ctrl+C cancels the action's token; the run then drains in-flight sends (--grace) and writes its ledger, so allow it time.
return await parse.InvokeAsync(new InvocationConfiguration { ProcessTerminationTimeout = TimeSpan.FromMinutes(2) });
