namespace SensorPipeline.EventHubs.Bench;

/// <summary>The senders bench's tables: per case its throughput and CPU, what the emulator counted, and for the
/// profiled cases devhost's CPU per event by stage.</summary>
internal sealed class SenderReport
{
    private static readonly CultureInfo Inv = CultureInfo.InvariantCulture;
    private readonly List<(string Name, int InFlight, string Durability, SenderCase Case)> _cases = [];

    /// <summary>The case <paramref name="name"/> at <paramref name="inFlight"/> under <paramref name="durability"/>.</summary>
    public SenderCase this[string name, int inFlight, string durability] =>
        _cases.Single(c => c.Name == name && c.InFlight == inFlight && c.Durability == durability).Case;

    public void Add(string name, int inFlight, string durability, SenderCase result)
    {
        _cases.Add((name, inFlight, durability, result));
        var m = result.Measured;
        Console.Error.WriteLine(string.Create(Inv, $"{name} | {inFlight} | {durability} | {m.EventsPerSecond:N0} events/s | devhost {m.DevHostMicrosPerEvent:N1} µs/event"));
    }

    public void Print(TextWriter output)
    {
        MarkdownTable.Write(output, ["sender", "in flight", "durability", "events/s", "client CPU µs/event", "devhost CPU µs/event", "events/group commit", "fsync µs/group commit",
            "fsync share/partition", "AMQP frames in/event", "AMQP frames out/event"], _cases.Select(c => Row(c.Name, c.InFlight, c.Durability, c.Case.Measured)).ToList(), textColumns: [0, 2]);
        output.WriteLine("fsync share/partition: time in fsync ÷ (window × partitions of the hub); AMQP frames: performatives each way as the AMQP stack counts them, per event acknowledged");
        var profiled = _cases.Where(c => c.Case.Profiled is not null).ToList();
        if (profiled.Count == 0)
        {
            return;
        }

        output.WriteLine();
        output.WriteLine("devhost CPU µs per event by stage (profiled window: perf samples of devhost, each given to a stage by its stack; share × the window's CPU per event)");
        var rows = DevHostStages.All.Select(stage => (string[])[stage, .. profiled.Select(c => c.Case.Profiled!.StageMicrosPerEvent(stage)!.Value.ToString("N1", Inv))]).ToList();
        rows.Add(["total", .. profiled.Select(c => c.Case.Profiled!.DevHostMicrosPerEvent.ToString("N1", Inv))]);
        rows.Add(["samples", .. profiled.Select(c => c.Case.Profiled!.Samples.ToString("N0", Inv))]);
        rows.Add(["events/s while profiled", .. profiled.Select(c => c.Case.Profiled!.EventsPerSecond.ToString("N0", Inv))]);
        MarkdownTable.Write(output, ["stage", .. profiled.Select(c => $"{Short(c.Name)} {c.InFlight} {c.Durability}")], rows, textColumns: [0]);
    }

    private static string Short(string name) => name.Split(',')[0];

    private static string[] Row(string name, int inFlight, string durability, SenderWindow w)
    {
        var amqp = w.Counters["amqpFramesReceived"] > 0;
        return
        [
            name, inFlight.ToString(Inv), durability, w.EventsPerSecond.ToString("N0", Inv), w.ClientMicrosPerEvent.ToString("N1", Inv), w.DevHostMicrosPerEvent.ToString("N1", Inv),
            w.Counters.EventsPerGroupCommit.ToString("N1", Inv), w.Counters.FsyncMicrosPerGroupCommit.ToString("N0", Inv),
            w.Counters.FsyncShare(w.Seconds, w.Partitions).ToString("P0", Inv),
            amqp ? w.Counters.FramesInPerEvent(w.Events).ToString("N2", Inv) : "-", amqp ? w.Counters.FramesOutPerEvent(w.Events).ToString("N2", Inv) : "-",
        ];
    }
}
