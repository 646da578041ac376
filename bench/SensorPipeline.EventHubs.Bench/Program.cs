using System.CommandLine;
using SensorPipeline.CommandLine;
using SensorPipeline.EventHubs.Bench;

// Event Hubs emulator benchmark: HTTP ingestion per durability setting against a devhost process, then in-process reads;
// `senders`: the sender study over AMQP and REST (SendersBench, ./pipeline bench senders).
var main = new BenchSettings.Options();
var root = (RootCommand)main.AddTo(new RootCommand("The Event Hubs emulator: HTTP ingestion per durability setting, in-process appends and reads."));
root.SetAction(async parse =>
{
    var settings = main.Read(parse);
    var table = new ResultTable();
    await IngestionBench.RunAsync(settings, table);
    await AppendBench.RunAsync(settings, table);
    await ReadBench.RunAsync(settings, table);
    table.Print(Console.Out);
    Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"machine: {Environment.ProcessorCount} cores, {settings.Seconds} s per HTTP case, {settings.Connections} connections, batch {settings.BatchSize} events, bodies {settings.BodyBytes} B"));
    return ExitCodes.Ok;
});
var senders = new BenchSettings.Options();
var sendersCommand = senders.AddTo(new Command("senders", "New connection, one by one, batches of 50, buffered; over AMQP and REST at 1, 8, 64 in flight."));
sendersCommand.SetAction(async parse =>
{
    await SendersBench.RunAsync(senders.Read(parse), Console.Out);
    return ExitCodes.Ok;
});
root.Subcommands.Add(sendersCommand);
return await CommandLineProgram.RunAsync("bench eventhubs", root, args);
