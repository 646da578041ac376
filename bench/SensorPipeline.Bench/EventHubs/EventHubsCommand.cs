namespace SensorPipeline.EventHubs.Bench;

/// <summary>
/// <c>eventhubs</c>: the Event Hubs emulator's HTTP ingestion per durability setting against a devhost process, then
/// in-process appends and reads; <c>eventhubs senders</c>: the sender study over AMQP and REST (<see cref="SendersBench"/>,
/// <c>./pipeline bench senders</c>).
/// </summary>
internal static class EventHubsCommand
{
    public static Command Command()
    {
        var main = new BenchSettings.Options();
        var command = main.AddTo(new Command("eventhubs", "The Event Hubs emulator: HTTP ingestion per durability setting, in-process appends and reads."));
        command.SetAction((parse, token) => BenchRun.RunAsync("eventhubs", async _ =>
        {
            var settings = main.Read(parse);
            var table = new ResultTable();
            await IngestionBench.RunAsync(settings, table);
            await AppendBench.RunAsync(settings, table);
            await ReadBench.RunAsync(settings, table);
            table.Print(Console.Out);
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{settings.Seconds} s per HTTP case, {settings.Connections} connections, batch {settings.BatchSize} events, bodies {settings.BodyBytes} B"));
        }, token));
        var senders = new BenchSettings.Options();
        var sendersCommand = senders.AddTo(new Command("senders", "New connection, one by one, batches of 50, buffered; over AMQP and REST at 1, 8, 64 in flight."));
        sendersCommand.SetAction((parse, token) => BenchRun.RunAsync("senders", _ => SendersBench.RunAsync(senders.Read(parse), Console.Out), token));
        command.Subcommands.Add(sendersCommand);
        return command;
    }
}
