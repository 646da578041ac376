using System.Globalization;
using Google.Protobuf;
using Google.Protobuf.WellKnownTypes;
using SensorPipeline.Core.Readings;
using SensorPipeline.Core.Splitting;
using Location = SensorPipeline.Protos.Location;
using Reading = SensorPipeline.Protos.Reading;
using ReadingBatch = SensorPipeline.Protos.ReadingBatch;

namespace SensorPipeline.Plan.Model;

/// <summary>
/// What one splitter invocation sends to the processor hubs, found by running core's own <see cref="Splitter"/> (and so
/// its <see cref="DevicePartitioner"/> and envelope writer) over synthetic ingestion events: loadgen's shape (readings of
/// every kind in equal shares, each from a device drawn from the fleet, <c>readingsPerEvent</c> to an event). The splitter
/// sends one envelope per target partition and kind that got a reading, so with more partitions than readings per kind
/// and partition an invocation sends about <c>kinds × partitions</c> small envelopes, not <c>readings / 250</c>.
/// </summary>
/// <param name="EventsPerInvocation">Ingestion events per splitter invocation (may be fractional: a mean).</param>
/// <param name="ReadingsPerInvocation">Readings per splitter invocation.</param>
/// <param name="EnvelopesPerInvocation">Envelopes (events on every kind's hub together) per splitter invocation.</param>
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
        var kinds = SensorKindCatalog.Default.All;
        var perKind = Math.Max(1, (int)Math.Min(int.MaxValue, devices / kinds.Count));
        long envelopes = 0, bytes = 0, readings = 0;
        for (var sample = 0; sample < Samples; sample++)
        {
            var inputs = new InputEvent[events];
            for (var e = 0; e < events; e++)
            {
                var batch = new ReadingBatch();
                for (var r = 0; r < readingsPerEvent; r++)
                {
                    batch.Readings.Add(SyntheticReading(random, kinds[r % kinds.Count], random.Next(perKind)));
                }

                inputs[e] = new InputEvent(batch.ToByteArray(), new SourcePosition(random.Next(partitions).ToString(CultureInfo.InvariantCulture), 1_000_000 + e, 1_767_225_600_000 + e));
            }

            var split = splitter.Split(inputs, 1_767_225_600_500, [.. kinds.Select(_ => partitions)]);
            envelopes += split.Kinds.Sum(k => k.Envelopes.Count);
            bytes += split.Kinds.Sum(k => k.Envelopes.Sum(e => (long)e.Length));
            readings += split.Kinds.Sum(k => k.Readings);
        }

        return new EnvelopeShape(events, (double)readings / Samples, (double)envelopes / Samples, (double)bytes / readings);
    }

    /// <summary>A reading as loadgen's devices send it: every field set, coordinates to 6 decimals.</summary>
    private static Reading SyntheticReading(Random random, SensorKindDefinition kind, int device)
    {
        var reading = new Reading
        {
            DeviceId = string.Create(CultureInfo.InvariantCulture, $"dev-{kind.Name}-{device + 1:D6}"),
            Kind = kind.Kind,
            Sequence = (ulong)random.Next(1, 1_000_000),
            ObservedAt = Timestamp.FromDateTimeOffset(DateTimeOffset.FromUnixTimeMilliseconds(1_767_225_600_000)),
            Location = new Location { Latitude = Math.Round((random.NextDouble() * 170) - 85, 6), Longitude = Math.Round((random.NextDouble() * 359) - 179.5, 6), AltitudeM = Math.Round(random.NextDouble() * 500, 1) },
        };
        var values = new double[kind.Measurements.Count];
        for (var i = 0; i < values.Length; i++)
        {
            values[i] = (random.NextDouble() * 100) + 0.001;
        }

        reading.MergeFrom(PayloadEncoder.Encode(kind, values));
        return reading;
    }
}
