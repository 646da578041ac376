using Google.Protobuf;
using Google.Protobuf.WellKnownTypes;
using SensorPipeline.Core.GeoJson;
using SensorPipeline.Protos;

namespace SensorPipeline.Testing;

/// <summary>
/// Readings built with the generated protobuf classes, as a real producer would send them, so every test also checks
/// compatibility with Google.Protobuf. One source for the core's tests, the handler's, loadgen's and the fuzz harness's
/// seed inputs (their projects compile this file too; SensorPipeline.Functions.Tests adds what only its tests need in a
/// part of its own).
/// </summary>
internal static partial class Builders
{
    public static readonly DateTimeOffset Observed = new(2026, 11, 21, 12, 0, 0, TimeSpan.Zero);

    /// <summary>The document id of a reading built here (observed at <see cref="Observed"/> + sequence seconds).</summary>
    public static string ReadingId(string device, ulong sequence) => DocumentIds.ReadingId(device, sequence, Observed.AddSeconds(sequence));

    /// <summary>The document id of <paramref name="reading"/>.</summary>
    public static string ReadingId(Reading reading) => DocumentIds.ReadingId(reading.DeviceId, reading.Sequence, reading.ObservedAt.ToDateTimeOffset());

    /// <summary>A weather reading, observed at <paramref name="observed"/> or else <see cref="Observed"/> + sequence seconds.</summary>
    public static Reading Weather(string device = "ws-0001", ulong sequence = 1, double lat = 47.6, double lon = -122.3, DateTimeOffset? observed = null) => new()
    {
        DeviceId = device,
        Kind = SensorKind.Weather,
        Sequence = sequence,
        ObservedAt = Timestamp.FromDateTimeOffset(observed ?? Observed.AddSeconds(sequence)),
        Location = new Location { Latitude = lat, Longitude = lon, AltitudeM = 56.5 },
        Weather = new WeatherPayload
        {
            TemperatureC = 12.5, RelativeHumidityPct = 81, PressureHpa = 1013.25,
            WindSpeedMps = 4.2, WindDirectionDeg = 270, RainMmph = 0.4,
        },
    };

    /// <summary>A seismic reading, observed at <paramref name="observed"/> or else <see cref="Observed"/> + sequence seconds.</summary>
    public static Reading Seismic(string device = "sm-0001", ulong sequence = 1, double lat = 35.7, double lon = 139.7, DateTimeOffset? observed = null) => new()
    {
        DeviceId = device,
        Kind = SensorKind.Seismic,
        Sequence = sequence,
        ObservedAt = Timestamp.FromDateTimeOffset(observed ?? Observed.AddSeconds(sequence)),
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
