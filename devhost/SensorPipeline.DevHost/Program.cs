using SensorPipeline.CommandLine;
using SensorPipeline.DevHost;
using SensorPipeline.DevHost.Explorer;
using SensorPipeline.DevHost.Instances;

// devhost: parse args → Event Hubs emulator (→ local Functions host) → endpoints → run. Start-up errors exit non-zero.
// `devhost instance …` runs one Functions-host instance in its own process against another devhost's hubs.
// SIGTERM and Ctrl+C are the web host's: it stops the Functions host and its handler, then the emulator, in order.
return await CommandLineProgram.RunAsync("devhost", DevHostCommandLine.Create(RunAsync, RunInstanceAsync, StatusAsync), args,
    CommandLineProgram.HostHandlesTermination());

static Task<int> StatusAsync(Uri url) => StatusCommand.RunAsync(url, Console.Out, Console.Error);

static Task<int> RunAsync(DevHostArguments arguments) =>
    DevHostApp.RunAsync(arguments, builder => builder.AddEventHubsEmulator(arguments.HubsFile, arguments.EventHubsDataDirectory)
            .AddFunctionsHost(o => (o.AppRoot, o.DataDirectory) = (arguments.AppRoot, arguments.DataDirectory))
            .AddFunctionsHostOverEmulator()
            .AddTelemetryIngestion()
            .AddExplorer(),
        app => app.MapEventHubsEndpoints().MapFunctionsHostEndpoints().MapTelemetryEndpoints().MapExplorerEndpoints());

static Task<int> RunInstanceAsync(InstanceArguments instance) =>
    // The instance reads and writes the hubs over AMQP on the devhost's port (the SDK's processor, and its producer for
    // output bindings), as an instance in Azure reaches the namespace.
    DevHostApp.RunAsync(instance.Host, builder => builder
            .AddFunctionsHost(o => (o.AppRoot, o.DataDirectory, o.InstanceId, o.Functions) = (instance.Host.AppRoot, instance.Host.DataDirectory, instance.InstanceId, instance.Functions))
            .Services.AddSingleton<IEventHubsEndpoint>(new FixedEndpoint(instance.DevHost)),
        app => app.MapFunctionsHostEndpoints());
