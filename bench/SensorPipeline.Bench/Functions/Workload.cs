using System.Buffers;
using System.Text.Encodings.Web;
using System.Text.Json;
using Google.Protobuf;
using Google.Protobuf.WellKnownTypes;
using SensorPipeline.Core.Readings;
using SensorPipeline.Core.Splitting;
using Location = SensorPipeline.Protos.Location;
using Reading = SensorPipeline.Protos.Reading;
using ReadingBatch = SensorPipeline.Protos.ReadingBatch;
using SeismicPayload = SensorPipeline.Protos.SeismicPayload;
using SensorKind = SensorPipeline.Protos.SensorKind;
using WeatherPayload = SensorPipeline.Protos.WeatherPayload;

namespace SensorPipeline.Functions.Bench;

/// <summary>Deterministic test data: ingestion events of many readings, and host-format request bodies.</summary>
internal static class Workload
{
    /// <summary>
    /// <paramref name="events"/> ingestion events of <paramref name="readingsPerEvent"/> readings spread over
    /// <paramref name="devices"/> devices, each device's sequence numbers continuing after <paramref name="sequenceBase"/>;
    /// device i is <paramref name="ids"/>[i] when given, else <c>{prefix}-{i:D5}</c>.
    /// </summary>
    public static List<InputEvent> IngestionEvents(int events, int readingsPerEvent, int devices, string prefix, bool mixedKinds, DateTimeOffset enqueued, ulong sequenceBase = 0,
        IReadOnlyList<string>? ids = null)
    {
        var result = new List<InputEvent>(events);
        var sequences = Enumerable.Repeat(sequenceBase, devices).ToArray();
        var n = 0;
        for (var e = 0; e < events; e++)
        {
            var batch = new ReadingBatch();
            for (var r = 0; r < readingsPerEvent; r++, n++)
            {
                var device = n % devices;
                var seismic = mixedKinds && device % 2 == 1;
                var reading = new Reading
                {
                    DeviceId = ids?[device] ?? string.Create(CultureInfo.InvariantCulture, $"{prefix}-{device:D5}"),
                    Kind = seismic ? SensorKind.Seismic : SensorKind.Weather,
                    Sequence = ++sequences[device],
                    ObservedAt = Timestamp.FromDateTimeOffset(enqueued.AddMilliseconds(-n)),
                    Location = new Location { Latitude = 47.6 + (device * 0.001), Longitude = -122.3 - (device * 0.001), AltitudeM = 50 },
                };
                if (seismic)
                {
                    reading.Seismic = new SeismicPayload { Magnitude = 1.5, DepthKm = 8, PeakGroundAccelerationG = 0.01, AccelerationZMps2 = 9.81 };
                }
                else
                {
                    reading.Weather = new WeatherPayload { TemperatureC = 11.5 + (n % 7), RelativeHumidityPct = 80, PressureHpa = 1013, WindSpeedMps = 3, WindDirectionDeg = 200, RainMmph = 0.1 };
                }

                batch.Readings.Add(reading);
            }

            result.Add(new InputEvent(batch.ToByteArray(), new SourcePosition("0", e, enqueued.ToUnixTimeMilliseconds())));
        }

        return result;
    }

    /// <summary>The host's request body for these events (JSON strings holding JSON text, dates without 'Z').</summary>
    public static byte[] HostRequest(IReadOnlyList<InputEvent> events)
    {
        var options = new JsonWriterOptions { Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping };
        var buffer = new ArrayBufferWriter<byte>();
        using (var writer = new Utf8JsonWriter(buffer, options))
        {
            writer.WriteStartObject();
            writer.WriteStartObject("Data");
            writer.WriteString("events", Inner(events, options, (w, e) => w.WriteBase64StringValue(e.Body.Span)));
            writer.WriteEndObject();
            writer.WriteStartObject("Metadata");
            writer.WriteStartObject("PartitionContext");
            writer.WriteString("PartitionId", "0");
            writer.WriteEndObject();
            writer.WriteString("SequenceNumberArray", Inner(events, options, (w, e) => w.WriteNumberValue(e.Position.SequenceNumber)));
            writer.WriteString("EnqueuedTimeUtcArray", Inner(events, options, (w, e) =>
                w.WriteStringValue(e.Position.EnqueuedTime.UtcDateTime.ToString("yyyy-MM-ddTHH:mm:ss.fffffff", CultureInfo.InvariantCulture))));
            writer.WriteEndObject();
            writer.WriteEndObject();
        }

        return buffer.WrittenSpan.ToArray();
    }

    private static string Inner(IReadOnlyList<InputEvent> events, JsonWriterOptions options, Action<Utf8JsonWriter, InputEvent> item)
    {
        var buffer = new ArrayBufferWriter<byte>();
        using (var writer = new Utf8JsonWriter(buffer, options))
        {
            writer.WriteStartArray();
            foreach (var e in events)
            {
                item(writer, e);
            }

            writer.WriteEndArray();
        }

        return System.Text.Encoding.UTF8.GetString(buffer.WrittenSpan);
    }
}
