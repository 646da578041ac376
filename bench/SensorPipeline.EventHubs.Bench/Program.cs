using SensorPipeline.EventHubs.Bench;

// Event Hubs emulator benchmark: HTTP ingestion per durability setting against a devhost process, then in-process reads.
if (args is ["senders", .. var senderArgs])
{
    // ./pipeline bench senders: the sender study over AMQP and REST (SendersBench).
    await SendersBench.RunAsync(BenchSettings.Parse(senderArgs), Console.Out);
    return;
}

var settings = BenchSettings.Parse(args);
var table = new ResultTable();
await IngestionBench.RunAsync(settings, table);
await AppendBench.RunAsync(settings, table);
await ReadBench.RunAsync(settings, table);
table.Print(Console.Out);
Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"machine: {Environment.ProcessorCount} cores, {settings.Seconds} s per HTTP case, {settings.Connections} connections, batch {settings.BatchSize} events, bodies {settings.BodyBytes} B"));
