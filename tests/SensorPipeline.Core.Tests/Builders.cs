using Google.Protobuf;
using Google.Protobuf.WellKnownTypes;
using SensorPipeline.Protos;

namespace SensorPipeline.Core.Tests;

/// <summary>Test data built with the generated classes, so every test also checks compatibility with Google.Protobuf.</summary>
internal static class Builders
{
    public static readonly DateTimeOffset Observed = new(2026, 11, 21, 12, 0, 0, TimeSpan.Zero);

    /// <summary>The document id of a reading built here with its default observed time.</summary>
    public static string Id(string device, ulong sequence) => GeoJson.DocumentIds.ReadingId(device, sequence, Observed.AddSeconds(sequence));

    /// <summary>The document id of <paramref name="reading"/>.</summary>
    public static string Id(Reading reading) => GeoJson.DocumentIds.ReadingId(reading.DeviceId, reading.Sequence, reading.ObservedAt.ToDateTimeOffset());

    public static Reading Weather(string device = "ws-0001", ulong sequence = 1, double lat = 47.6, double lon = -122.3) => new()
    {
        DeviceId = device,
        Kind = SensorKind.Weather,
        Sequence = sequence,
        ObservedAt = Timestamp.FromDateTimeOffset(Observed.AddSeconds(sequence)),
        Location = new Location { Latitude = lat, Longitude = lon, AltitudeM = 56.5 },
        Weather = new WeatherPayload
        {
            TemperatureC = 12.5, RelativeHumidityPct = 81, PressureHpa = 1013.25,
            WindSpeedMps = 4.2, WindDirectionDeg = 270, RainMmph = 0.4,
        },
    };

    public static Reading Seismic(string device = "sm-0001", ulong sequence = 1, double lat = 35.7, double lon = 139.7) => new()
    {
        DeviceId = device,
        Kind = SensorKind.Seismic,
        Sequence = sequence,
        ObservedAt = Timestamp.FromDateTimeOffset(Observed.AddSeconds(sequence)),
        Location = new Location { Latitude = lat, Longitude = lon, AltitudeM = -3 },
        Seismic = new SeismicPayload
        {
            Magnitude = 2.1, DepthKm = 10, PeakGroundAccelerationG = 0.01,
            AccelerationXMps2 = 0.02, AccelerationYMps2 = -0.01, AccelerationZMps2 = 9.81,
        },
    };

    public static byte[] Batch(params Reading[] readings)
    {
        var batch = new ReadingBatch();
        batch.Readings.AddRange(readings);
        return batch.ToByteArray();
    }
}

/// <summary>A settable clock for pure unit tests.</summary>
internal sealed class TestClock(DateTimeOffset now) : TimeProvider
{
    public DateTimeOffset Now { get; set; } = now;

    public override DateTimeOffset GetUtcNow() => Now;

    public void Advance(TimeSpan by) => Now += by;
}
