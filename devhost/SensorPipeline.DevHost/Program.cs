using SensorPipeline.DevHost;

// devhost: parse args → Event Hubs emulator (→ local Functions host) → endpoints → run. Start-up errors exit non-zero.
if (args is ["status", .. var statusArgs])
{
    return await StatusCommand.RunAsync(statusArgs, Console.Out, Console.Error);
}

if (DevHostArguments.Parse(args, out var error) is not { } arguments)
{
    await Console.Error.WriteLineAsync(error);
    return 2;
}

return await DevHostApp.RunAsync(arguments, builder => builder.AddEventHubsEmulator(arguments.HubsFile, arguments.EventHubsDataDirectory)
        .AddFunctionsHost(o => (o.AppRoot, o.DataDirectory) = (arguments.AppRoot, arguments.DataDirectory))
        .AddFunctionsHostOverEmulator()
        .AddTelemetryIngestion(),
    app => app.MapEventHubsEndpoints().MapFunctionsHostEndpoints().MapTelemetryEndpoints());
