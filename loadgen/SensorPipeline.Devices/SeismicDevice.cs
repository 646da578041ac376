using SensorPipeline.Protos;

namespace SensorPipeline.Devices;

/// <summary>A seismometer: background noise almost always, now and then an event whose shaking decays
/// over the following readings.</summary>
public sealed class SeismicDevice : SimulatedDevice
{
    /// <summary>Chance per reading that an event starts: rare enough that most readings are quiet.</summary>
    private const double EventProbability = 0.002;

    private const double StandardGravity = 9.80665;

    private readonly double _depthKm;
    private double _eventMagnitude;

    public SeismicDevice(string id, SensorKind kind, Random random)
        : base(id, kind, random)
    {
        _depthKm = 5 + Random.NextDouble() * 30;
    }

    protected override void FillPayload(Reading reading)
    {
        if (_eventMagnitude < 0.5 && Random.NextDouble() < EventProbability)
        {
            _eventMagnitude = 2 + Random.NextDouble() * 3.5;
        }
        else
        {
            _eventMagnitude *= 0.8; // the coda dies away over a few readings
        }

        var magnitude = Math.Max(_eventMagnitude, 0.2 + Math.Abs(Gaussian()) * 0.2);
        // Peak ground acceleration grows about tenfold per two magnitude units; 1e-3 g at M 2.
        var pgaG = 1e-3 * Math.Pow(10, (magnitude - 2) / 2);
        var amplitude = pgaG * StandardGravity;
        reading.Seismic = new SeismicPayload
        {
            Magnitude = Math.Round(magnitude, 2),
            DepthKm = Math.Round(_depthKm + Gaussian() * 0.2, 1),
            PeakGroundAccelerationG = Math.Round(pgaG, 5),
            AccelerationXMps2 = Math.Round(Gaussian() * amplitude / 2, 4),
            AccelerationYMps2 = Math.Round(Gaussian() * amplitude / 2, 4),
            AccelerationZMps2 = Math.Round(Gaussian() * amplitude / 3, 4),
        };
    }
}
