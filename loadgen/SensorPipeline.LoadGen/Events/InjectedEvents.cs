using Google.Protobuf;
using Google.Protobuf.WellKnownTypes;
using SensorPipeline.Protos;

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
    /// A well-formed ReadingBatch of valid readings at least <paramref name="minimumBytes"/> long: over the
    /// splitter's per-event budget (≈9.8 KB at maxEventBatchSize 100), so it is dead-lettered as oversize.
    /// </summary>
    public static byte[] Oversize(int number, int minimumBytes, DateTimeOffset now)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(minimumBytes, 1);
        var batch = new ReadingBatch();
        var deviceId = string.Create(System.Globalization.CultureInfo.InvariantCulture, $"oversize-{number:D4}");
        ulong sequence = 0;
        while (batch.CalculateSize() < minimumBytes)
        {
            batch.Readings.Add(new Reading
            {
                DeviceId = deviceId,
                Kind = SensorKind.Weather,
                Sequence = ++sequence,
                ObservedAt = Timestamp.FromDateTimeOffset(now),
                Location = new Location { Latitude = 47.6205, Longitude = -122.3493, AltitudeM = 56 },
                Weather = new WeatherPayload { TemperatureC = 12.5, RelativeHumidityPct = 80, PressureHpa = 1012.3, WindSpeedMps = 3.2, WindDirectionDeg = 210, RainMmph = 0.4 },
            });
        }

        return batch.ToByteArray();
    }
}
