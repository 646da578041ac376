using Google.Protobuf;
using SensorPipeline.Devices;
using SensorPipeline.Protos;

namespace SensorPipeline.LoadGen.Events;

/// <summary>
/// Packs readings into ReadingBatch events, visiting the fleet round-robin so each event mixes devices and
/// kinds and each device's sequences go out in order. Not thread-safe: one producer builds events.
/// </summary>
internal sealed class EventPacker
{
    private readonly DeviceFleet _fleet;
    private int _cursor;
    private long _nextTrackIndex;

    public EventPacker(DeviceFleet fleet) => _fleet = fleet ?? throw new ArgumentNullException(nameof(fleet));

    /// <summary>Tracked events built so far.</summary>
    public long EventsBuilt => _nextTrackIndex;

    /// <summary>Builds the next event of <paramref name="readingCount"/> readings observed at <paramref name="now"/>.</summary>
    public PackedEvent Next(int readingCount, DateTimeOffset now)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(readingCount, 1);
        var batch = new ReadingBatch();
        var spans = new List<DeviceSpan>(Math.Min(readingCount, _fleet.Count));
        // Index into spans per device, so a device visited twice in one event (more readings than devices) keeps one span.
        var spanOf = new Dictionary<int, int>(Math.Min(readingCount, _fleet.Count));
        for (var i = 0; i < readingCount; i++)
        {
            var index = _cursor;
            _cursor = (_cursor + 1) % _fleet.Count;
            var reading = _fleet[index].Next(now);
            batch.Readings.Add(reading);
            if (spanOf.TryGetValue(index, out var at))
            {
                spans[at] = spans[at] with { Last = reading.Sequence };
            }
            else
            {
                spanOf[index] = spans.Count;
                spans.Add(new DeviceSpan(index, reading.Sequence, reading.Sequence));
            }
        }

        return new PackedEvent(EventKind.Readings, batch.ToByteArray(), readingCount, spans, _nextTrackIndex++);
    }
}
