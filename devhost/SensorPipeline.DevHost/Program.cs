using SensorPipeline.DevHost;
using SensorPipeline.DevHost.Instances;

// devhost: parse args → Event Hubs emulator (→ local Functions host) → endpoints → run. Start-up errors exit non-zero.
// `devhost instance …` runs one Functions-host instance in its own process against another devhost's hubs.
if (args is ["status", .. var statusArgs])
{
    return await StatusCommand.RunAsync(statusArgs, Console.Out, Console.Error);
}

if (args is ["instance", .. var instanceArgs])
{
    if (InstanceArguments.Parse(instanceArgs, out var instanceError) is not { } instance)
    {
        await Console.Error.WriteLineAsync(instanceError);
        return 2;
    }

    RemoteEventHubsGateway gateway;
    try
    {
        gateway = await RemoteEventHubsGateway.ConnectAsync(instance.DevHost, CancellationToken.None);
    }
    catch (InvalidOperationException e)
    {
        await Console.Error.WriteLineAsync("devhost: cannot start: " + e.Message);
        return 1;
    }

    await using (gateway)
    {
        return await DevHostApp.RunAsync(instance.Host, builder => builder
                .AddFunctionsHost(o => (o.AppRoot, o.DataDirectory, o.InstanceId, o.Functions) = (instance.Host.AppRoot, instance.Host.DataDirectory, instance.InstanceId, instance.Functions))
                .Services.AddSingleton<IEventHubsGateway>(gateway).AddSingleton<IEventHubsEndpoint>(new FixedEndpoint(instance.DevHost)),
            app => app.MapFunctionsHostEndpoints());
    }
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
    app => app.MapEventHubsEndpoints().MapFunctionsHostEndpoints().MapTelemetryEndpoints().MapInternalHubEndpoints());
