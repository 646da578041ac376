using Google.Protobuf.WellKnownTypes;
using SensorPipeline.Protos;

namespace SensorPipeline.Devices;

/// <summary>
/// One simulated device: its own random stream (so the values of one device do not depend on how the
/// fleet is interleaved), a slowly wandering position and its own sequence counter starting at 1.
/// Not thread-safe: the load run builds events on one thread.
/// </summary>
public abstract class SimulatedDevice
{
    /// <summary>About one metre of latitude: how far a device may wander between two readings.</summary>
    private const double StepDegrees = 0.00001;

    private double _latitude;
    private double _longitude;
    private double _altitudeM;

    protected SimulatedDevice(string id, SensorKind kind, Random random)
    {
        Id = id;
        Kind = kind;
        Random = random;
        _latitude = Math.Round(random.NextDouble() * 120 - 60, 6);
        _longitude = Math.Round(random.NextDouble() * 360 - 180, 6);
        _altitudeM = Math.Round(random.NextDouble() * 1500, 1);
    }

    public string Id { get; }

    public SensorKind Kind { get; }

    /// <summary>The sequence of the last reading produced; 0 before the first.</summary>
    public ulong Sequence { get; private set; }

    protected Random Random { get; }

    /// <summary>The starting latitude (degrees) and altitude (metres), for a device's climate.</summary>
    protected double Latitude => _latitude;

    protected double AltitudeM => _altitudeM;

    /// <summary>Produces the next reading, observed at <paramref name="observedAt"/>.</summary>
    public Reading Next(DateTimeOffset observedAt)
    {
        Move();
        var reading = new Reading
        {
            DeviceId = Id,
            Kind = Kind,
            Sequence = ++Sequence,
            ObservedAt = Timestamp.FromDateTimeOffset(observedAt),
            Location = new Location { Latitude = _latitude, Longitude = _longitude, AltitudeM = _altitudeM },
        };
        FillPayload(reading);
        return reading;
    }

    protected abstract void FillPayload(Reading reading);

    /// <summary>A standard normal sample (Box–Muller): measurement noise looks Gaussian, not uniform.</summary>
    protected double Gaussian()
    {
        var u1 = 1.0 - Random.NextDouble();
        var u2 = Random.NextDouble();
        return Math.Sqrt(-2.0 * Math.Log(u1)) * Math.Cos(2.0 * Math.PI * u2);
    }

    private void Move()
    {
        // Clamped away from the poles and the antimeridian so a wandering device never leaves the valid range.
        _latitude = Math.Round(Math.Clamp(_latitude + Gaussian() * StepDegrees, -85, 85), 6);
        _longitude = Math.Round(Math.Clamp(_longitude + Gaussian() * StepDegrees, -179.9, 179.9), 6);
        _altitudeM = Math.Round(Math.Max(0, _altitudeM + Gaussian() * 0.05), 1);
    }
}
