using SensorPipeline.CosmosEmulator.Hosting;

// The Cosmos DB emulator: parse args → open the store (recovering the log) → HTTPS on loopback → run.
// Start-up errors exit non-zero with a message naming the file or setting.
if (EmulatorArguments.Parse(args, out var error) is not { } arguments)
{
    await Console.Error.WriteLineAsync(error);
    return 2;
}

return await EmulatorApp.RunAsync(arguments);
