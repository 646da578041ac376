using System.Diagnostics.Metrics;
using System.Text.Json;
using Microsoft.Azure.Amqp;

namespace SensorPipeline.EventHubs;

/// <summary>A namespace's running totals since it opened: its group commits and fsyncs, the AMQP frames it read and
/// wrote, the bytes its receiver links handed to the AMQP stack, and the events appended over each protocol. Every field is a long moved with <see cref="Interlocked"/> (no
/// lock, no allocation per event), written by the writer loops and the connections and read whole by <c>GET
/// /status</c> (its <c>counters</c> object) and by the <see cref="Meter"/> named after this assembly, whose observable
/// instruments read the same fields. A reader takes each total separately: a snapshot taken during traffic may be a
/// few events apart between two totals.</summary>
/// <remarks>Frames are counted through Microsoft.Azure.Amqp's <see cref="IAmqpUsageMeter"/>, which the stack calls
/// for every AMQP frame a connection decodes and every performative it encodes (SASL frames and empty heartbeat
/// frames it writes are not performatives: not counted as sent).</remarks>
public sealed class EventHubsCounters : IAmqpUsageMeter, IDisposable
{
    private const ulong TransferCode = 0x14;
    private const ulong DispositionCode = 0x15;
    private const ulong FlowCode = 0x13;

    private readonly Meter? _meter;
    private long _groupCommits;
    private long _eventsCommitted;
    private long _fsyncCalls;
    private long _fsyncTicks;
    private long _framesReceived;
    private long _framesSent;
    private long _transfersReceived;
    private long _transfersSent;
    private long _dispositionsReceived;
    private long _dispositionsSent;
    private long _flowsReceived;
    private long _flowsSent;
    private long _bytesHandedToReceivers;
    private long _eventsAppendedAmqp;
    private long _eventsAppendedRest;

    /// <summary>Totals published as a <see cref="Meter"/> tagged with <paramref name="namespaceName"/>; without one
    /// (a partition log opened alone, as the fuzz harness does) they are only counted.</summary>
    internal EventHubsCounters(string? namespaceName = null)
    {
        if (namespaceName is null)
        {
            return;
        }

        _meter = new Meter(typeof(EventHubsCounters).Assembly.GetName().Name!);
        var tags = new KeyValuePair<string, object?>[] { new("namespace", namespaceName) };
        foreach (var (name, unit, description, read) in Instruments())
        {
            _meter.CreateObservableCounter(name, () => new Measurement<long>(read(), tags), unit, description);
        }
    }

    /// <summary>Group commits: one write of whatever a partition's writer took from its queue at once.</summary>
    public long GroupCommits => Volatile.Read(ref _groupCommits);

    /// <summary>Events acknowledged by those group commits.</summary>
    public long EventsCommitted => Volatile.Read(ref _eventsCommitted);

    /// <summary>fsync calls on the partition logs and indexes (each group commit under Always, Interval's periodic
    /// flush, a segment sealed, shutdown).</summary>
    public long FsyncCalls => Volatile.Read(ref _fsyncCalls);

    /// <summary>Time spent in those fsync calls, in <see cref="System.Diagnostics.Stopwatch"/> ticks.</summary>
    public long FsyncTicks => Volatile.Read(ref _fsyncTicks);

    public long AmqpFramesReceived => Volatile.Read(ref _framesReceived);

    public long AmqpFramesSent => Volatile.Read(ref _framesSent);

    /// <summary>Transfer frames read: a message takes one, or more when it is larger than the frame size.</summary>
    public long AmqpTransfersReceived => Volatile.Read(ref _transfersReceived);

    /// <summary>Transfer frames written: the deliveries to receivers.</summary>
    public long AmqpTransfersSent => Volatile.Read(ref _transfersSent);

    public long AmqpDispositionsReceived => Volatile.Read(ref _dispositionsReceived);

    public long AmqpDispositionsSent => Volatile.Read(ref _dispositionsSent);

    public long AmqpFlowsReceived => Volatile.Read(ref _flowsReceived);

    public long AmqpFlowsSent => Volatile.Read(ref _flowsSent);

    /// <summary>Bytes of events the receiver links handed to the AMQP stack (body and stored envelope, as
    /// <c>EventHubs:Amqp:MaxQueuedBytesPerLink</c> counts them): less what the peers read, what the endpoint holds.</summary>
    public long AmqpBytesHandedToReceivers => Volatile.Read(ref _bytesHandedToReceivers);

    /// <summary>Events a sender link appended (acknowledged Accepted).</summary>
    public long EventsAppendedAmqp => Volatile.Read(ref _eventsAppendedAmqp);

    /// <summary>Events the REST send API appended (answered 201).</summary>
    public long EventsAppendedRest => Volatile.Read(ref _eventsAppendedRest);

    internal void GroupCommitted(int events)
    {
        Interlocked.Increment(ref _groupCommits);
        Interlocked.Add(ref _eventsCommitted, events);
    }

    internal void Fsynced(long stopwatchTicks)
    {
        Interlocked.Increment(ref _fsyncCalls);
        Interlocked.Add(ref _fsyncTicks, stopwatchTicks);
    }

    internal void HandedToReceivers(long bytes) => Interlocked.Add(ref _bytesHandedToReceivers, bytes);

    internal void AppendedOverAmqp(int events) => Interlocked.Add(ref _eventsAppendedAmqp, events);

    internal void AppendedOverRest(int events) => Interlocked.Add(ref _eventsAppendedRest, events);

    void IAmqpUsageMeter.OnRead(AmqpConnection connection, ulong frameCode, int numberOfBytes) =>
        CountFrame(frameCode, ref _framesReceived, ref _transfersReceived, ref _dispositionsReceived, ref _flowsReceived);

    void IAmqpUsageMeter.OnWrite(AmqpConnection connection, ulong frameCode, int numberOfBytes) =>
        CountFrame(frameCode, ref _framesSent, ref _transfersSent, ref _dispositionsSent, ref _flowsSent);

    /// <summary>One frame of one direction: its total, and the total of its performative when it is one counted apart.</summary>
    private static void CountFrame(ulong frameCode, ref long frames, ref long transfers, ref long dispositions, ref long flows)
    {
        Interlocked.Increment(ref frames);
        switch (frameCode)
        {
            case TransferCode:
                Interlocked.Increment(ref transfers);
                break;
            case DispositionCode:
                Interlocked.Increment(ref dispositions);
                break;
            case FlowCode:
                Interlocked.Increment(ref flows);
                break;
        }
    }

    // The transport's own reads and writes (several frames each) are not counted: PipeTransport reports none.
    void ITransportMonitor.OnTransportWrite(int bufferSize, int writeSize, long queueSize, long latencyTicks)
    {
    }

    void ITransportMonitor.OnTransportRead(int bufferSize, int readSize, int cacheHits, long latencyTicks)
    {
    }

    /// <summary>Writes the totals as one JSON object (the <c>counters</c> member of <c>GET /status</c>).</summary>
    public void WriteTo(Utf8JsonWriter writer)
    {
        ArgumentNullException.ThrowIfNull(writer);
        writer.WriteStartObject();
        foreach (var (name, _, _, read) in Instruments())
        {
            writer.WriteNumber(name, read());
        }

        // The unit of fsyncTicks, so a reader converts without knowing the platform's timer.
        writer.WriteNumber("stopwatchTicksPerSecond", System.Diagnostics.Stopwatch.Frequency);

        writer.WriteEndObject();
    }

    public void Dispose() => _meter?.Dispose();

    /// <summary>Each total once: its name (the JSON member and the instrument), unit, description and reader.</summary>
    private IEnumerable<(string Name, string Unit, string Description, Func<long> Read)> Instruments()
    {
        yield return ("groupCommits", "{commit}", "Group commits of the partition logs", () => GroupCommits);
        yield return ("eventsCommitted", "{event}", "Events acknowledged by group commits", () => EventsCommitted);
        yield return ("fsyncCalls", "{call}", "fsync calls on the partition logs", () => FsyncCalls);
        yield return ("fsyncTicks", "{tick}", "Stopwatch ticks spent in fsync", () => FsyncTicks);
        yield return ("amqpFramesReceived", "{frame}", "AMQP frames read", () => AmqpFramesReceived);
        yield return ("amqpFramesSent", "{frame}", "AMQP performatives written", () => AmqpFramesSent);
        yield return ("amqpTransfersReceived", "{frame}", "AMQP transfer frames read", () => AmqpTransfersReceived);
        yield return ("amqpTransfersSent", "{frame}", "AMQP transfer frames written (deliveries to receivers)", () => AmqpTransfersSent);
        yield return ("amqpDispositionsReceived", "{frame}", "AMQP disposition frames read", () => AmqpDispositionsReceived);
        yield return ("amqpDispositionsSent", "{frame}", "AMQP disposition frames written", () => AmqpDispositionsSent);
        yield return ("amqpFlowsReceived", "{frame}", "AMQP flow frames read", () => AmqpFlowsReceived);
        yield return ("amqpFlowsSent", "{frame}", "AMQP flow frames written", () => AmqpFlowsSent);
        yield return ("amqpBytesHandedToReceivers", "By", "Bytes of events AMQP receiver links handed to the AMQP stack", () => AmqpBytesHandedToReceivers);
        yield return ("eventsAppendedAmqp", "{event}", "Events appended by AMQP sender links", () => EventsAppendedAmqp);
        yield return ("eventsAppendedRest", "{event}", "Events appended by the REST send API", () => EventsAppendedRest);
    }
}
