using System.Globalization;
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

namespace SensorPipeline.Plan.Model;

/// <summary>
/// What one splitter invocation sends to the processor hubs, found by running core's own <see cref="Splitter"/> (and so
/// its <see cref="DevicePartitioner"/> and envelope writer) over synthetic ingestion events: loadgen's shape (readings of
/// both kinds in equal shares, each from a device drawn from the fleet, <c>readingsPerEvent</c> to an event). The splitter
/// sends one envelope per target partition and kind that got a reading, so with more partitions than readings per kind
/// and partition an invocation sends about <c>2 × partitions</c> small envelopes, not <c>readings / 250</c>.
/// </summary>
/// <param name="EventsPerInvocation">Ingestion events per splitter invocation (may be fractional: a mean).</param>
/// <param name="ReadingsPerInvocation">Readings per splitter invocation.</param>
/// <param name="EnvelopesPerInvocation">Envelopes (events on the weather and seismic hubs together) per splitter invocation.</param>
/// <param name="EnvelopeBytesPerReading">Bytes on the processor hubs per reading, as the splitter writes them.</param>
internal sealed record EnvelopeShape(double EventsPerInvocation, double ReadingsPerInvocation, double EnvelopesPerInvocation, double EnvelopeBytesPerReading)
{
    /// <summary>Invocations simulated per whole number of events; their mean is the shape.</summary>
    private const int Samples = 3;

    /// <summary>The mean readings per envelope.</summary>
    public double ReadingsPerEnvelope => ReadingsPerInvocation / EnvelopesPerInvocation;

    /// <summary>Envelopes per reading: the processor hubs' events per reading.</summary>
    public double EnvelopesPerReading => EnvelopesPerInvocation / ReadingsPerInvocation;

    /// <summary>
    /// The shape at <paramref name="eventsPerInvocation"/> events per invocation; a fractional mean is interpolated between
    /// the whole numbers on either side. Deterministic: the same inputs give the same shape.
    /// </summary>
    public static EnvelopeShape Of(double eventsPerInvocation, int readingsPerEvent, double devices, int partitions)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(eventsPerInvocation, 1);
        var low = (int)Math.Floor(eventsPerInvocation);
        var lower = Simulate(low, readingsPerEvent, devices, partitions);
        var weight = eventsPerInvocation - low;
        if (weight == 0)
        {
            return lower;
        }

        var upper = Simulate(low + 1, readingsPerEvent, devices, partitions);
        double Mix(double a, double b) => a + ((b - a) * weight);
        return new EnvelopeShape(eventsPerInvocation, Mix(lower.ReadingsPerInvocation, upper.ReadingsPerInvocation),
            Mix(lower.EnvelopesPerInvocation, upper.EnvelopesPerInvocation), Mix(lower.EnvelopeBytesPerReading, upper.EnvelopeBytesPerReading));
    }

    private static EnvelopeShape Simulate(int events, int readingsPerEvent, double devices, int partitions)
    {
        var random = new Random(events * 7919 + partitions);
        var splitter = new Splitter();
        var perKind = Math.Max(1, (int)Math.Min(int.MaxValue, devices / 2));
        long envelopes = 0, bytes = 0, readings = 0;
        for (var sample = 0; sample < Samples; sample++)
        {
            var inputs = new InputEvent[events];
            for (var e = 0; e < events; e++)
            {
                var batch = new ReadingBatch();
                for (var r = 0; r < readingsPerEvent; r++)
                {
                    batch.Readings.Add(SyntheticReading(random, r % 2 == 0 ? SensorKind.Weather : SensorKind.Seismic, random.Next(perKind)));
                }

                inputs[e] = new InputEvent(batch.ToByteArray(), new SourcePosition(random.Next(partitions).ToString(CultureInfo.InvariantCulture), 1_000_000 + e, 1_767_225_600_000 + e));
            }

            var split = splitter.Split(inputs, 1_767_225_600_500, partitions, partitions);
            envelopes += split.Weather.Count + split.Seismic.Count;
            bytes += split.Weather.Sum(w => (long)w.Length) + split.Seismic.Sum(s => (long)s.Length);
            readings += split.WeatherReadings + split.SeismicReadings;
        }

        return new EnvelopeShape(events, (double)readings / Samples, (double)envelopes / Samples, (double)bytes / readings);
    }

    /// <summary>A reading as loadgen's devices send it: every field set, coordinates to 6 decimals.</summary>
    private static Reading SyntheticReading(Random random, SensorKind kind, int device)
    {
        var reading = new Reading
        {
            DeviceId = string.Create(CultureInfo.InvariantCulture, $"dev-{(kind == SensorKind.Weather ? "weather" : "seismic")}-{device + 1:D6}"),
            Kind = kind,
            Sequence = (ulong)random.Next(1, 1_000_000),
            ObservedAt = Timestamp.FromDateTimeOffset(DateTimeOffset.FromUnixTimeMilliseconds(1_767_225_600_000)),
            Location = new Location { Latitude = Math.Round((random.NextDouble() * 170) - 85, 6), Longitude = Math.Round((random.NextDouble() * 359) - 179.5, 6), AltitudeM = Math.Round(random.NextDouble() * 500, 1) },
        };
        double Value() => (random.NextDouble() * 100) + 0.001;
        if (kind == SensorKind.Weather)
        {
            reading.Weather = new WeatherPayload { TemperatureC = Value(), RelativeHumidityPct = Value(), PressureHpa = Value(), WindSpeedMps = Value(), WindDirectionDeg = Value(), RainMmph = Value() };
        }
        else
        {
            reading.Seismic = new SeismicPayload { Magnitude = Value(), DepthKm = Value(), PeakGroundAccelerationG = Value(), AccelerationXMps2 = Value(), AccelerationYMps2 = Value(), AccelerationZMps2 = Value() };
        }

        return reading;
    }
}
