using System.CommandLine;
using SensorPipeline.CommandLine;
using SensorPipeline.Stack;
using Spectre.Console;

// stack demo [--duration 40s] [--rate 2500 (500 with --instances)] [--data DIR] [--instances auto|N]   the one-command local run (./pipeline demo)
// stack up   [--port 7071]   [--data DIR] [--instances auto|N] [--eventhubs CS|NS --storage CS|ACCOUNT] [--cosmos CS|ACCOUNT]
//                                                                            start everything and keep it running (./pipeline up)
// stack chaos [--minutes 10] [--rate 600] [--faults kill,storm] [--seed N]   the fault matrix (./pipeline chaos)
using var cancel = new CancellationTokenSource();
Console.CancelKeyPress += (_, e) =>
{
    e.Cancel = true;
    cancel.Cancel();
};
// SIGTERM (a service manager, `kill`, or a shell that started us in the background, where SIGINT is ignored) stops the
// stack the same way, so the Cosmos DB emulator, devhost and the handler never outlive it.
using var terminate = System.Runtime.InteropServices.PosixSignalRegistration.Create(System.Runtime.InteropServices.PosixSignal.SIGTERM, context =>
{
    context.Cancel = true;
    cancel.Cancel();
});
var layout = new Lazy<RepoLayout>(() => RepoLayout.Discover());
// Ctrl+C and SIGTERM are the stack's own (above): they stop the children in order, so System.CommandLine's handler is off.
return await CommandLineProgram.RunAsync("stack", StackCommandLine.Create(RunAsync), args,
    CommandLineProgram.HostHandlesTermination());

async Task<int> RunAsync(string command, StackRun arguments)
{
    try
    {
        return command switch
        {
            "demo" => await RunDemoAsync(layout.Value, arguments, cancel.Token),
            "up" => await RunUpAsync(layout.Value, arguments, cancel.Token),
            _ => await RunChaosAsync(layout.Value, arguments, cancel.Token),
        };
    }
    catch (OperationCanceledException)
    {
        return ExitCodes.Interrupted;
    }
    catch (Exception e) when (e is InvalidOperationException or TimeoutException or ArgumentException)
    {
        await Console.Error.WriteLineAsync($"stack: {e.Message}");
        return ExitCodes.Failed;
    }
}

static async Task<int> RunDemoAsync(RepoLayout layout, StackRun arguments, CancellationToken cancellationToken)
{
    var data = arguments.Data ?? Path.Combine(layout.Root, ".pipeline", "demo", DateTimeOffset.UtcNow.ToString("yyyyMMdd-HHmmss", System.Globalization.CultureInfo.InvariantCulture));
    var demo = new DemoOptions { Duration = arguments.Duration ?? TimeSpan.FromSeconds(40), Rate = arguments.Rate ?? (arguments.Instances is null ? new DemoOptions().Rate : DemoOptions.SeparateInstancesRate) };
    await using var pipeline = await LocalPipeline.StartAsync(layout, new StackOptions { DataDirectory = data, MaxAge = demo.MaxAge, Instances = arguments.Instances }, cancellationToken);
    Console.WriteLine($"devhost {pipeline.DevHostUrl}  ·  dashboard {pipeline.DashboardUrl}  ·  Cosmos DB emulator {pipeline.CosmosEndpoint}  ·  logs {data}/logs");
    var result = await Demo.RunAsync(pipeline, demo, Console.Out, cancellationToken);
    Demo.Print(result, pipeline, TableConsole());
    await Demo.PrintInstancesAsync(pipeline, TableConsole(), cancellationToken);
    return result.Passed ? ExitCodes.Ok : ExitCodes.Failed;
}

static async Task<int> RunChaosAsync(RepoLayout layout, StackRun arguments, CancellationToken cancellationToken)
{
    var data = arguments.Data ?? Path.Combine(layout.Root, ".pipeline", "chaos", DateTimeOffset.UtcNow.ToString("yyyyMMdd-HHmmss", System.Globalization.CultureInfo.InvariantCulture));
    var chaos = new SensorPipeline.Stack.Chaos.ChaosOptions
    {
        Minutes = arguments.Minutes ?? 10, Rate = arguments.Rate ?? 600, Only = arguments.Faults, Seed = arguments.Seed ?? Random.Shared.Next(),
    };
    var faults = SensorPipeline.Stack.Chaos.ChaosRun.Select(chaos.Only);
    await using var pipeline = await LocalPipeline.StartAsync(layout, new StackOptions { DataDirectory = data }, cancellationToken);
    Console.WriteLine($"devhost {pipeline.DevHostUrl}  ·  Cosmos DB emulator {pipeline.CosmosEndpoint}  ·  logs {data}/logs  ·  {faults.Count} faults");
    var rows = await SensorPipeline.Stack.Chaos.ChaosRun.RunAsync(pipeline, chaos, Console.Out, cancellationToken);
    SensorPipeline.Stack.Chaos.ChaosTable.Print(rows, TableConsole());
    return rows.All(r => r.Passed) ? ExitCodes.Ok : ExitCodes.Failed;
}

// Redirected output (CI, a log file) gets a fixed wide width so the tables do not wrap.
static IAnsiConsole TableConsole()
{
    if (!Console.IsOutputRedirected)
    {
        return AnsiConsole.Console;
    }

    var console = AnsiConsole.Create(new AnsiConsoleSettings { Out = new AnsiConsoleOutput(Console.Out), Ansi = AnsiSupport.No, ColorSystem = ColorSystemSupport.NoColors });
    console.Profile.Width = 230;
    return console;
}

static async Task<int> RunUpAsync(RepoLayout layout, StackRun arguments, CancellationToken cancellationToken)
{
    var data = arguments.Data ?? Path.Combine(layout.Root, ".pipeline", "up");
    // The repository itself is the app root when the handler has been published to ./handler (./pipeline up does).
    var appRoot = File.Exists(Path.Combine(layout.Root, "handler", "SensorPipeline.Functions")) ? layout.Root : null;
    await using var pipeline = await LocalPipeline.StartAsync(layout,
        new StackOptions { DataDirectory = data, AppRoot = appRoot, DevHostPort = arguments.Port ?? 7071, AmqpPort = 5672, Echo = true, Instances = arguments.Instances, Azure = arguments.Azure }, cancellationToken);
    Console.WriteLine($"""

        SensorPipeline is running locally (Ctrl+C stops everything; so does devhost or the emulator dying):
          devhost (Event Hubs REST + AMQP, Functions host)  {pipeline.DevHostUrl}  (pid {pipeline.DevHost!.Id})
          dashboard                                   {pipeline.DashboardUrl}
          Cosmos DB emulator                          {pipeline.CosmosEndpoint}  (pid {pipeline.Cosmos.Id}; data in {data}/cosmos; key: the emulator key)
          EventHubConnection                          {pipeline.EventHubConnection}
        {RealAzureLines(arguments.Azure)}
        Send load:  dotnet {pipeline.Layout.LoadGenDll} --connection "{pipeline.EventHubConnection}" --rate 1000 --duration 30s --ledger {data}/ledger.json
        Verify:     dotnet {pipeline.Layout.LoadGenDll} verify --ledger {data}/ledger.json --cosmos-endpoint {pipeline.CosmosEndpoint}
        """);
    // Runs until Ctrl+C (exit 0), or until devhost or the Cosmos DB emulator dies (reported; everything stops; exit 1).
    var died = await pipeline.Supervision.WatchAsync(pipeline, Console.Error, cancellationToken);
    Console.WriteLine("stopping …");
    return died ? ExitCodes.Failed : ExitCodes.Ok;
}

// What a run against real Azure uses instead of the local emulators (the emulators still run: loadgen's default target
// and the dashboard stay local).
static string RealAzureLines(RealAzure? azure)
{
    if (azure is null)
    {
        return "";
    }

    static string Shown(SensorPipeline.CommandLine.AzureResource? resource) =>
        resource is null ? "local" : resource.Host ?? "connection string (shared key)";

    return $"""
          Functions host and handler use real Azure:  Event Hubs {Shown(azure.EventHubs)}  ·  Storage {Shown(azure.Storage)}  ·  Cosmos DB {Shown(azure.Cosmos)}
          Send load to the real namespace with loadgen --connection or --namespace; the splitter forwards into that namespace's hubs of the sensor kinds.
        """;
}
