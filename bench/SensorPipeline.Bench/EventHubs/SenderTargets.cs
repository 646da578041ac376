namespace SensorPipeline.EventHubs.Bench;

/// <summary>The sender targets, each printed met or missed beside its baseline from the same run (REST for AMQP,
/// durability None for Always) and the measured figures that explain it.</summary>
internal sealed class SenderTargets(SenderReport report, int inFlight)
{
    private const double AmqpOverRest = 2.0;
    private const double AlwaysOverNone = 0.9;
    private const double CpuAmqpOverRest = 0.5;
    private static readonly CultureInfo Inv = CultureInfo.InvariantCulture;

    public void Print(TextWriter output)
    {
        var amqp = report[SenderCases.AmqpOneByOneName, inFlight, "Always"];
        var rest = report[SenderCases.RestOneByOneName, inFlight, "Always"];
        var none = report[SenderCases.AmqpOneByOneName, inFlight, "None"];
        output.WriteLine();
        output.WriteLine(Throughput(amqp.Measured, rest.Measured));
        output.WriteLine(Durability(amqp.Measured, none.Measured));
        output.WriteLine(Cpu(amqp, rest));
    }

    private string Throughput(SenderWindow amqp, SenderWindow rest)
    {
        var ratio = amqp.EventsPerSecond / rest.EventsPerSecond;
        return string.Create(Inv, $"""
            throughput: AMQP/REST one by one at {inFlight} in flight {ratio:F2}× (target ≥ {AmqpOverRest}×): {Verdict(ratio >= AmqpOverRest)} — AMQP {amqp.EventsPerSecond:N0} events/s, REST {rest.EventsPerSecond:N0}.
              client + devhost share the cores: CPU per event (client + devhost) AMQP {amqp.ClientMicrosPerEvent:N1} + {amqp.DevHostMicrosPerEvent:N1} µs, REST {rest.ClientMicrosPerEvent:N1} + {rest.DevHostMicrosPerEvent:N1} µs, so cores that are the limit allow AMQP {Total(rest) / Total(amqp):F2}× REST;
              AMQP frames per event {amqp.Counters.FramesInPerEvent(amqp.Events):F2} in, {amqp.Counters.FramesOutPerEvent(amqp.Events):F2} out; events per group commit AMQP {amqp.Counters.EventsPerGroupCommit:F1}, REST {rest.Counters.EventsPerGroupCommit:F1}; fsync per group commit AMQP {amqp.Counters.FsyncMicrosPerGroupCommit:N0} µs, REST {rest.Counters.FsyncMicrosPerGroupCommit:N0} µs
            """);
    }

    private string Durability(SenderWindow always, SenderWindow none)
    {
        var ratio = always.EventsPerSecond / none.EventsPerSecond;
        var perPartition = inFlight / (double)always.Partitions;
        return string.Create(Inv, $"""
            durability: AMQP one by one at {inFlight} in flight, Always/None {ratio:F2}× (target ≥ {AlwaysOverNone}×): {Verdict(ratio >= AlwaysOverNone)} — Always {always.EventsPerSecond:N0} events/s, None {none.EventsPerSecond:N0}.
              Always: {always.Counters.GroupCommits:N0} group commits of {always.Counters.EventsPerGroupCommit:F1} events (at most {perPartition:F0} can wait per partition: {inFlight} sends over {always.Partitions} partitions, each waiting for its commit), fsync {always.Counters.FsyncMicrosPerGroupCommit:N0} µs per group commit, {always.Counters.FsyncShare(always.Seconds, always.Partitions):P0} of each partition writer's time in fsync;
              None: {none.Counters.GroupCommits:N0} group commits of {none.Counters.EventsPerGroupCommit:F1} events, {none.Counters["fsyncCalls"]:N0} fsyncs;
              CPU per event (client + devhost) Always {always.ClientMicrosPerEvent:N1} + {always.DevHostMicrosPerEvent:N1} µs, None {none.ClientMicrosPerEvent:N1} + {none.DevHostMicrosPerEvent:N1} µs, so cores that are the limit allow Always {Total(none) / Total(always):F2}× None
            """);
    }

    private string Cpu(SenderCase amqp, SenderCase rest)
    {
        var ratio = amqp.Measured.DevHostMicrosPerEvent / rest.Measured.DevHostMicrosPerEvent;
        var line = string.Create(Inv, $"devhost CPU per event: AMQP/REST one by one at {inFlight} in flight {ratio:F2}× (target ≤ {CpuAmqpOverRest}×): {Verdict(ratio <= CpuAmqpOverRest)} — AMQP {amqp.Measured.DevHostMicrosPerEvent:N1} µs, REST {rest.Measured.DevHostMicrosPerEvent:N1} µs");
        if (amqp.Profiled is not { } a || rest.Profiled is not { } r)
        {
            return line;
        }

        // The stages where the two differ most say what AMQP costs beyond REST and what REST costs that AMQP does not.
        var stages = DevHostStages.All
            .Select(s => (Stage: s, Amqp: a.StageMicrosPerEvent(s)!.Value, Http: r.StageMicrosPerEvent(s)!.Value))
            .OrderByDescending(s => Math.Max(s.Amqp, s.Http))
            .Take(5)
            .Select(s => string.Create(Inv, $"{s.Stage} {s.Amqp:N1} vs {s.Http:N1}"));
        // What both protocols pay alike (the log's write and fsync) is a floor under AMQP's CPU per event.
        var shared = a.StageMicrosPerEvent(DevHostStages.Fsync)!.Value + a.StageMicrosPerEvent(DevHostStages.LogWrite)!.Value;
        return line + Environment.NewLine + string.Create(Inv, $"""
              profiled (µs per event, AMQP vs REST): {string.Join("; ", stages)};
              the log's write and fsync, paid alike by both protocols, take {shared:N1} of AMQP's {a.DevHostMicrosPerEvent:N1} µs: with no AMQP cost at all the ratio would be {shared / r.DevHostMicrosPerEvent:F2}×
            """);
    }

    private static double Total(SenderWindow w) => w.ClientMicrosPerEvent + w.DevHostMicrosPerEvent;

    private static string Verdict(bool met) => met ? "met" : "missed";
}
