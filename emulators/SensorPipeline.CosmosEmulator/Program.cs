using SensorPipeline.CommandLine;
using SensorPipeline.CosmosEmulator.Hosting;

// The Cosmos DB emulator: parse args → open the store (recovering the log) → HTTPS on loopback → run.
// Start-up errors exit non-zero with a message naming the file or setting.
return await CommandLineProgram.RunAsync("cosmos-emulator", EmulatorArguments.Command(EmulatorApp.RunAsync), args);
