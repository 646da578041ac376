using Google.Protobuf;
using Google.Protobuf.WellKnownTypes;
using SensorPipeline.Core.Splitting;
using SensorPipeline.Protos;
using SourcePosition = SensorPipeline.Core.Readings.SourcePosition;

namespace SensorPipeline.LoadGen.Events;

/// <summary>
/// Builds the bad events loadgen injects. Their readings use device ids outside the fleet, so a
/// dead-lettered injection never leaves a gap in a tracked device's sequences.
/// </summary>
internal static class InjectedEvents
{
    /// <summary>
    /// Garbage that can never frame as a ReadingBatch: it opens with field 1 (length-delimited) claiming
    /// 2 MiB, more than any event holds, so the splitter dead-letters the whole body rather than
    /// parsing random bytes into half-valid readings. Random filler makes each poison body unique.
    /// </summary>
    public static byte[] Poison(Random random, int length)
    {
        ArgumentNullException.ThrowIfNull(random);
        ArgumentOutOfRangeException.ThrowIfLessThan(length, 8);
        var body = new byte[length];
        random.NextBytes(body);
        ReadOnlySpan<byte> header = [0x0A, 0x80, 0x80, 0x80, 0x01]; // tag 1/LEN, varint 2,097,152
        header.CopyTo(body);
        return body;
    }

    /// <summary>
    /// A well-formed ReadingBatch holding one valid reading of at least <paramref name="minimumBytes"/>, grown by an
    /// unknown field. The splitter forwards any number of readings, but a reading this large cannot travel alone:
    /// its envelope would not fit one Event Hubs event, so it is dead-lettered as oversize — the one size case the
    /// pipeline dead-letters. The dead letter holds the reading (<see cref="DeadLetterPayload"/>), not the event.
    /// </summary>
    public static byte[] Oversize(int number, int minimumBytes, DateTimeOffset now)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(minimumBytes, 1);
        var deviceId = string.Create(System.Globalization.CultureInfo.InvariantCulture, $"oversize-{number:D4}");
        var reading = Valid(deviceId, 1, now);
        var padding = new byte[Math.Max(0, minimumBytes - reading.CalculateSize())];
        using var readingStream = new MemoryStream();
        using (var output = new CodedOutputStream(readingStream, leaveOpen: true))
        {
            reading.WriteTo(output);
            output.WriteTag(PaddingField, WireFormat.WireType.LengthDelimited);
            output.WriteBytes(ByteString.CopyFrom(padding));
        }

        using var batchStream = new MemoryStream();
        using (var output = new CodedOutputStream(batchStream, leaveOpen: true))
        {
            output.WriteTag(ReadingBatch.ReadingsFieldNumber, WireFormat.WireType.LengthDelimited);
            output.WriteBytes(ByteString.CopyFrom(readingStream.ToArray()));
        }

        return batchStream.ToArray();
    }

    /// <summary>
    /// A ReadingBatch of three valid readings cut inside the last one (never at a reading boundary), so its framing
    /// fails and the splitter dead-letters the whole body as undecodable — a producer that died mid-write.
    /// </summary>
    public static byte[] Truncated(Random random, int number, DateTimeOffset now)
    {
        ArgumentNullException.ThrowIfNull(random);
        var batch = new ReadingBatch();
        for (var i = 1; i <= 3; i++)
        {
            batch.Readings.Add(Valid(string.Create(System.Globalization.CultureInfo.InvariantCulture, $"truncated-{number:D4}"), (ulong)i, now));
        }

        var whole = batch.ToByteArray();
        var last = batch.Readings[2].CalculateSize();
        // The last reading's field is its tag, its length varint and its bytes: cut after the tag and length, inside the bytes.
        var cut = whole.Length - 1 - random.Next(last - 1);
        return whole[..cut];
    }

    /// <summary>A ReadingBatch of one reading whose latitude is 123.4: valid framing, one reading the splitter rejects alone.</summary>
    public static byte[] OutOfRange(int number, DateTimeOffset now)
    {
        var reading = Valid(string.Create(System.Globalization.CultureInfo.InvariantCulture, $"out-of-range-{number:D4}"), 1, now);
        reading.Location.Latitude = 123.4;
        var batch = new ReadingBatch();
        batch.Readings.Add(reading);
        return batch.ToByteArray();
    }

    /// <summary>
    /// A weather envelope, written by the splitter's own code, whose source enqueued time is past the calendar's end —
    /// what a corrupted or forged event on a processor hub looks like; the processor dead-letters it as invalid-source.
    /// </summary>
    public static byte[] Forged(int number, DateTimeOffset now)
    {
        var batch = new ReadingBatch();
        batch.Readings.Add(Valid(string.Create(System.Globalization.CultureInfo.InvariantCulture, $"forged-{number:D4}"), 1, now));
        var splitter = new Splitter();
        var result = splitter.Split([new InputEvent(batch.ToByteArray(), new SourcePosition("0", number, long.MaxValue))], now.ToUnixTimeMilliseconds());
        return result.Of(SensorKind.Weather).Envelopes.Single().ToArray();
    }

    /// <summary>What the dead letter of an injected event holds: the whole body, except for the kinds whose one reading is
    /// dead-lettered alone (oversize, out of range).</summary>
    public static ReadOnlySpan<byte> DeadLetterPayload(EventKind kind, byte[] body)
    {
        ArgumentNullException.ThrowIfNull(body);
        if (kind is not (EventKind.Oversize or EventKind.OutOfRange))
        {
            return body;
        }

        var input = new CodedInputStream(body);
        input.ReadTag();
        return input.ReadBytes().Span;
    }

    private static Reading Valid(string deviceId, ulong sequence, DateTimeOffset now) => new()
    {
        DeviceId = deviceId,
        Kind = SensorKind.Weather,
        Sequence = sequence,
        ObservedAt = Timestamp.FromDateTimeOffset(now),
        Location = new Location { Latitude = 47.6205, Longitude = -122.3493, AltitudeM = 56 },
        Weather = new WeatherPayload { TemperatureC = 12.5, RelativeHumidityPct = 80, PressureHpa = 1012.3, WindSpeedMps = 3.2, WindDirectionDeg = 210, RainMmph = 0.4 },
    };

    /// <summary>An unused field number: readers skip it, so the reading stays valid.</summary>
    private const int PaddingField = 99;
}
