using SensorPipeline.CommandLine;
using SensorPipeline.CosmosEmulator.Hosting;

// The Cosmos DB emulator: parse args → open the store (recovering the log) → HTTPS on loopback → run.
// Start-up errors exit non-zero with a message naming the file or setting.
// SIGTERM and Ctrl+C are the web host's: it finishes the requests in flight and flushes the log before exiting.
return await CommandLineProgram.RunAsync("cosmos-emulator", EmulatorArguments.Command(EmulatorApp.RunAsync), args,
    CommandLineProgram.HostHandlesTermination());
