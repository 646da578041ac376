using SensorPipeline.Core.Readings;

namespace SensorPipeline.Core.DeadLetters;

/// <summary>
/// Something the pipeline could not use, kept with the reason and the exact bytes so nothing is lost.
/// The id is deterministic (stage, hub partition, sequence number, index within the event), so a
/// redelivered batch overwrites its dead letters instead of duplicating them.
/// </summary>
/// <param name="Stage">The function that rejected it (e.g. <c>splitter</c>, <c>weather-processor</c>).</param>
/// <param name="Reason">Why.</param>
/// <param name="Position">The event it came from, on the hub the stage reads.</param>
/// <param name="ReadingIndex">Index of the reading within that event; null when the whole event was rejected.</param>
/// <param name="DeviceId">The reading's device id when it could be read.</param>
/// <param name="Payload">The rejected bytes: the whole event body, or the one reading's encoded message.</param>
/// <param name="Detail">Extra context (an exception message from the store, say).</param>
public sealed record DeadLetter(
    string Stage,
    DeadLetterReason Reason,
    SourcePosition Position,
    int? ReadingIndex,
    string? DeviceId,
    ReadOnlyMemory<byte> Payload,
    string? Detail = null)
{
    /// <summary>The deterministic document id.</summary>
    public string Id => ReadingIndex is { } index
        ? string.Create(System.Globalization.CultureInfo.InvariantCulture, $"{Stage}:{Position.PartitionId}:{Position.SequenceNumber}:{index}")
        : string.Create(System.Globalization.CultureInfo.InvariantCulture, $"{Stage}:{Position.PartitionId}:{Position.SequenceNumber}");
}
