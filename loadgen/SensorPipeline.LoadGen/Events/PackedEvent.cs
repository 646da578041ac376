namespace SensorPipeline.LoadGen.Events;

/// <summary>A run of consecutive sequences of one device inside an event.</summary>
/// <param name="DeviceIndex">Index into the fleet.</param>
/// <param name="First">First sequence in the event.</param>
/// <param name="Last">Last sequence in the event (inclusive).</param>
internal readonly record struct DeviceSpan(int DeviceIndex, ulong First, ulong Last);

/// <summary>What the event carries.</summary>
internal enum EventKind
{
    /// <summary>Readings of the fleet, tracked in the ledger.</summary>
    Readings,

    /// <summary>An already sent event sent again (the same readings twice).</summary>
    Duplicate,

    /// <summary>Garbage bytes the splitter must dead-letter whole.</summary>
    Poison,

    /// <summary>A valid ReadingBatch of one reading too large to forward, which the splitter dead-letters.</summary>
    Oversize,

    /// <summary>A ReadingBatch cut inside its last reading: the splitter dead-letters the whole body as undecodable.</summary>
    Truncated,

    /// <summary>A ReadingBatch of one reading with a latitude beyond ±90: that reading is dead-lettered alone.</summary>
    OutOfRange,

    /// <summary>An envelope sent straight to a processor hub with an impossible enqueued time: the processor dead-letters it.</summary>
    Forged,

    /// <summary>A request the hub must refuse with a 4xx (<see cref="MalformedSends"/>); never tracked as an event.</summary>
    MalformedSend,
}

/// <summary>One event body ready to send.</summary>
/// <param name="Kind">What it carries.</param>
/// <param name="Body">The event body (a serialized ReadingBatch, or garbage for poison).</param>
/// <param name="ReadingCount">Readings in the body (0 for poison).</param>
/// <param name="Spans">For <see cref="EventKind.Readings"/>: the device sequences it carries; empty otherwise.</param>
/// <param name="TrackIndex">For <see cref="EventKind.Readings"/>: its position among tracked events (0, 1, …); -1 otherwise.</param>
internal sealed record PackedEvent(EventKind Kind, byte[] Body, int ReadingCount, IReadOnlyList<DeviceSpan> Spans, long TrackIndex);
