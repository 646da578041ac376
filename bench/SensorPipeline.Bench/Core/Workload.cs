using Google.Protobuf;
using Google.Protobuf.WellKnownTypes;
using SensorPipeline.Protos;

namespace SensorPipeline.Core.Bench;

/// <summary>Deterministic ingestion events: 50 readings each, weather and seismic interleaved, as loadgen sends them.</summary>
internal static class Workload
{
    public const int ReadingsPerEvent = 50;

    public static byte[][] Events(int count, int seed)
    {
        var random = new Random(seed);
        var start = DateTimeOffset.UtcNow;
        var events = new byte[count][];
        for (var e = 0; e < count; e++)
        {
            var batch = new ReadingBatch();
            for (var r = 0; r < ReadingsPerEvent; r++)
            {
                var device = random.Next(1000);
                var weather = r % 2 == 0;
                var reading = new Reading
                {
                    DeviceId = (weather ? "ws-" : "sm-") + device.ToString("D5", System.Globalization.CultureInfo.InvariantCulture),
                    Kind = weather ? SensorKind.Weather : SensorKind.Seismic,
                    Sequence = (ulong)(e * ReadingsPerEvent + r + 1),
                    ObservedAt = Timestamp.FromDateTimeOffset(start.AddMilliseconds(e * 10 + r)),
                    // GPS receivers report ~6 decimals (0.1 m); altitude to 0.1 m.
                    Location = new Location { Latitude = Math.Round(random.NextDouble() * 180 - 90, 6), Longitude = Math.Round(random.NextDouble() * 360 - 180, 6), AltitudeM = Math.Round(random.NextDouble() * 3000, 1) },
                };
                if (weather)
                {
                    reading.Weather = new WeatherPayload
                    {
                        TemperatureC = Math.Round(random.NextDouble() * 40 - 10, 2), RelativeHumidityPct = Math.Round(random.NextDouble() * 100, 1),
                        PressureHpa = Math.Round(980 + random.NextDouble() * 50, 2), WindSpeedMps = Math.Round(random.NextDouble() * 20, 2),
                        WindDirectionDeg = Math.Round(random.NextDouble() * 360, 1), RainMmph = Math.Round(random.NextDouble() * 5, 2),
                    };
                }
                else
                {
                    reading.Seismic = new SeismicPayload
                    {
                        Magnitude = Math.Round(random.NextDouble() * 3, 2), DepthKm = Math.Round(random.NextDouble() * 30, 1),
                        PeakGroundAccelerationG = Math.Round(random.NextDouble() * 0.05, 4), AccelerationXMps2 = Math.Round(random.NextDouble() * 0.1, 4),
                        AccelerationYMps2 = Math.Round(random.NextDouble() * 0.1, 4), AccelerationZMps2 = Math.Round(9.8 + random.NextDouble() * 0.02, 4),
                    };
                }

                batch.Readings.Add(reading);
            }

            events[e] = batch.ToByteArray();
        }

        return events;
    }
}
