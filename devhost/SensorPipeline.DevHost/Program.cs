using SensorPipeline.CommandLine;
using SensorPipeline.DevHost;
using SensorPipeline.DevHost.Explorer;
using SensorPipeline.DevHost.Instances;

// devhost: parse args → Event Hubs emulator (→ local Functions host) → endpoints → run. Start-up errors exit non-zero.
// `devhost instance …` runs one Functions-host instance in its own process against another devhost's hubs.
return await CommandLineProgram.RunAsync("devhost", DevHostCommandLine.Create(RunAsync, RunInstanceAsync, StatusAsync), args);

static Task<int> StatusAsync(Uri url) => StatusCommand.RunAsync(url, Console.Out, Console.Error);

static Task<int> RunAsync(DevHostArguments arguments) =>
    DevHostApp.RunAsync(arguments, builder => builder.AddEventHubsEmulator(arguments.HubsFile, arguments.EventHubsDataDirectory)
            .AddFunctionsHost(o => (o.AppRoot, o.DataDirectory) = (arguments.AppRoot, arguments.DataDirectory))
            .AddFunctionsHostOverEmulator()
            .AddTelemetryIngestion()
            .AddExplorer(),
        app => app.MapEventHubsEndpoints().MapFunctionsHostEndpoints().MapTelemetryEndpoints().MapInternalHubEndpoints().MapExplorerEndpoints());

static async Task<int> RunInstanceAsync(InstanceArguments instance)
{
    RemoteEventHubsGateway gateway;
    try
    {
        gateway = await RemoteEventHubsGateway.ConnectAsync(instance.DevHost, CancellationToken.None);
    }
    catch (InvalidOperationException e)
    {
        await Console.Error.WriteLineAsync("devhost: cannot start: " + e.Message);
        return ExitCodes.Failed;
    }

    await using (gateway)
    {
        return await DevHostApp.RunAsync(instance.Host, builder => builder
                .AddFunctionsHost(o => (o.AppRoot, o.DataDirectory, o.InstanceId, o.Functions) = (instance.Host.AppRoot, instance.Host.DataDirectory, instance.InstanceId, instance.Functions))
                .Services.AddSingleton<IEventHubsGateway>(gateway).AddSingleton<IEventHubsEndpoint>(new FixedEndpoint(instance.DevHost)),
            app => app.MapFunctionsHostEndpoints());
    }
}
