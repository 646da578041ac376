using System.Buffers;
using System.Text;
using System.Text.Json;
using SensorPipeline.Core.GeoJson;
using SensorPipeline.Core.Readings;

namespace SensorPipeline.EndToEnd.Bench;

/// <summary>
/// Reading documents as the processors write them — written by the core's own <see cref="GeoJsonFeatureWriter"/>,
/// so shape and size match — for a fleet that alternates weather stations and seismometers as loadgen's does.
/// </summary>
internal sealed class ReadingDocuments(int devices)
{
    private readonly string[] _deviceNames = [.. Enumerable.Range(0, devices).Select(d =>
        string.Create(CultureInfo.InvariantCulture, $"raw-{(d % 2 == 0 ? "weather" : "seismic")}-{d:D4}"))];

    private byte[][] DeviceIds => field ??= [.. _deviceNames.Select(Encoding.UTF8.GetBytes)];

    /// <summary>The partition key and id of document <paramref name="n"/> written with <paramref name="enqueuedUnixMs"/> (what a point read names).</summary>
    public (string DeviceId, string Id) Key(long n, long enqueuedUnixMs)
    {
        var device = (int)(n % _deviceNames.Length);
        return (_deviceNames[device], DocumentIds.ReadingId(_deviceNames[device], (ulong)(n / _deviceNames.Length) + 1, ObservedAt(enqueuedUnixMs)));
    }

    // Observed one second before it was enqueued, to the millisecond.
    private static DateTimeOffset ObservedAt(long enqueuedUnixMs) => DateTimeOffset.FromUnixTimeMilliseconds(enqueuedUnixMs - 1000);

    /// <summary>Writes document <paramref name="n"/> (device n mod devices, its sequence n div devices + 1) into <paramref name="buffer"/>.</summary>
    public (string DeviceId, ReadOnlyMemory<byte> Bytes) Write(ArrayBufferWriter<byte> buffer, Utf8JsonWriter writer, long n, long enqueuedUnixMs)
    {
        var device = (int)(n % DeviceIds.Length);
        var reading = new ReadingView
        {
            DeviceIdUtf8 = DeviceIds[device],
            Kind = device % 2 == 0 ? SensorPipeline.Protos.SensorKind.Weather : SensorPipeline.Protos.SensorKind.Seismic,
            Sequence = (ulong)(n / DeviceIds.Length) + 1,
            HasObservedAt = true,
            ObservedSeconds = (enqueuedUnixMs / 1000) - 1,
            ObservedNanos = (int)(enqueuedUnixMs % 1000 * 1_000_000),
            HasLocation = true,
            Latitude = 47.6 + (device * 0.001),
            Longitude = -122.3 - (device * 0.001),
            AltitudeM = 50,
            Payload = device % 2 == 0 ? PayloadCase.Weather : PayloadCase.Seismic,
            Weather = new WeatherValues { TemperatureC = 11.5 + (n % 7), RelativeHumidityPct = 80.25, PressureHpa = 1013.2, WindSpeedMps = 3.4, WindDirectionDeg = 200, RainMmph = 0.1 },
            Seismic = new SeismicValues { Magnitude = 1.5, DepthKm = 8.25, PeakGroundAccelerationG = 0.01, AccelerationXMps2 = 0.02, AccelerationYMps2 = 0.03, AccelerationZMps2 = 9.81 },
        };
        buffer.ResetWrittenCount();
        writer.Reset(buffer);
        GeoJsonFeatureWriter.Write(writer, reading, new SourcePosition("0", n, enqueuedUnixMs));
        writer.Flush();
        return (_deviceNames[device], buffer.WrittenMemory);
    }
}
