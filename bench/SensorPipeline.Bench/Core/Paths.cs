using System.Buffers;
using System.Text.Json;
using SensorPipeline.Core.GeoJson;
using SensorPipeline.Core.Policies;
using SensorPipeline.Core.Readings;
using SensorPipeline.Protos;

namespace SensorPipeline.Core.Bench;

/// <summary>One way to turn an ingestion event into GeoJSON documents; returns readings handled.</summary>
internal interface IPath
{
    int Run(byte[] body, long enqueuedMs, long nowMs);
}

/// <summary>Ours: span decoder → validation → staleness → Utf8JsonWriter into a reused buffer.</summary>
internal sealed class OursPath : IPath, IDisposable
{
    private readonly ArrayBufferWriter<byte> _buffer = new(64 * 1024);
    private readonly Utf8JsonWriter _writer;
    private readonly StalenessPolicy _policy = new(StalenessPolicy.DefaultMaxAge);

    public OursPath() => _writer = new Utf8JsonWriter(_buffer, new JsonWriterOptions { SkipValidation = true });

    public int Run(byte[] body, long enqueuedMs, long nowMs)
    {
        _buffer.ResetWrittenCount();
        var source = new Readings.SourcePosition("0", 1, enqueuedMs);
        var count = 0;
        foreach (var raw in ReadingBatchReader.EnumerateReadings(body))
        {
            if (!ReadingDecoder.TryDecode(raw, out var reading) || ReadingValidator.Validate(reading) != DeadLetterReason.None)
            {
                throw new InvalidOperationException("bench data must be valid");
            }

            var staleBy = _policy.StaleBy(enqueuedMs, nowMs);
            _writer.Reset(_buffer);
            GeoJsonFeatureWriter.Write(_writer, reading, source, staleBy);
            _writer.Flush();
            count++;
        }

        return count;
    }

    public void Dispose() => _writer.Dispose();
}

/// <summary>
/// The naive path every sample in this field takes: parse to objects with the generated classes,
/// map to a POCO, serialize it with System.Text.Json's reflection serializer, one byte[] per document.
/// </summary>
internal sealed class NaivePath : IPath
{
    private static readonly JsonSerializerOptions Options = new() { PropertyNamingPolicy = JsonNamingPolicy.CamelCase };
    private readonly TimeSpan _maxAge = StalenessPolicy.DefaultMaxAge;

    public int Run(byte[] body, long enqueuedMs, long nowMs)
    {
        var batch = ReadingBatch.Parser.ParseFrom(body);
        var enqueued = DateTimeOffset.FromUnixTimeMilliseconds(enqueuedMs);
        var stale = DateTimeOffset.FromUnixTimeMilliseconds(nowMs) - enqueued > _maxAge;
        var count = 0;
        foreach (var r in batch.Readings)
        {
            var properties = new Dictionary<string, object>
            {
                ["kind"] = r.Kind.Name(),
                ["sequence"] = r.Sequence,
                ["observedAt"] = r.ObservedAt.ToDateTimeOffset(),
                ["enqueuedAt"] = enqueued,
                ["stale"] = stale,
            };
            if (r.PayloadCase == Reading.PayloadOneofCase.Weather)
            {
                properties["temperatureC"] = r.Weather.TemperatureC;
                properties["relativeHumidityPct"] = r.Weather.RelativeHumidityPct;
                properties["pressureHpa"] = r.Weather.PressureHpa;
                properties["windSpeedMps"] = r.Weather.WindSpeedMps;
                properties["windDirectionDeg"] = r.Weather.WindDirectionDeg;
                properties["rainMmph"] = r.Weather.RainMmph;
            }
            else
            {
                properties["magnitude"] = r.Seismic.Magnitude;
                properties["depthKm"] = r.Seismic.DepthKm;
                properties["peakGroundAccelerationG"] = r.Seismic.PeakGroundAccelerationG;
                properties["accelerationXMps2"] = r.Seismic.AccelerationXMps2;
                properties["accelerationYMps2"] = r.Seismic.AccelerationYMps2;
                properties["accelerationZMps2"] = r.Seismic.AccelerationZMps2;
            }

            var feature = new Feature(
                r.DeviceId + ":" + r.Sequence.ToString(System.Globalization.CultureInfo.InvariantCulture),
                r.DeviceId,
                "Feature",
                new Point("Point", [r.Location.Longitude, r.Location.Latitude, r.Location.AltitudeM]),
                properties);
            _ = JsonSerializer.SerializeToUtf8Bytes(feature, Options);
            count++;
        }

        return count;
    }

    internal sealed record Point(string Type, double[] Coordinates);

    internal sealed record Feature(string Id, string DeviceId, string Type, Point Geometry, Dictionary<string, object> Properties);
}
