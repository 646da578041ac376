using Google.Protobuf;
using Google.Protobuf.WellKnownTypes;
using SensorPipeline.Protos;

namespace SensorPipeline.DevHost.Explorer;

/// <summary>A valid <c>ReadingBatch</c> to send from the explorer: <c>count</c> readings of devices
/// <c>explorer-sample-NN</c>, weather and seismic in turn, observed now, placed on a line across Europe.</summary>
public static class SampleBatch
{
    /// <summary>Most readings a sample batch holds (the readings per envelope the pipeline forwards).</summary>
    public const int MaxReadings = 250;

    public static byte[] Create(int count, DateTimeOffset now)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(count, 1);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(count, MaxReadings);
        var batch = new ReadingBatch();
        for (var i = 0; i < count; i++)
        {
            var reading = new Reading
            {
                DeviceId = $"explorer-sample-{i:D2}",
                Kind = i % 2 == 0 ? SensorKind.Weather : SensorKind.Seismic,
                Sequence = (ulong)now.ToUnixTimeMilliseconds(),
                ObservedAt = Timestamp.FromDateTimeOffset(now),
                Location = new Location { Latitude = 40 + (i % 20), Longitude = -5 + (i % 30), AltitudeM = 100 },
            };
            if (reading.Kind == SensorKind.Weather)
            {
                reading.Weather = new WeatherPayload { TemperatureC = 15 + (i % 10), RelativeHumidityPct = 60, PressureHpa = 1013, WindSpeedMps = 3, WindDirectionDeg = 180 };
            }
            else
            {
                reading.Seismic = new SeismicPayload { Magnitude = 1.5, DepthKm = 10, PeakGroundAccelerationG = 0.01 };
            }

            batch.Readings.Add(reading);
        }

        return batch.ToByteArray();
    }
}
