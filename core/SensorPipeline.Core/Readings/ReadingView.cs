using SensorKind = SensorPipeline.Protos.SensorKind;

namespace SensorPipeline.Core.Readings;

/// <summary>Which measurement set a reading carries (the proto's <c>payload</c> oneof).</summary>
public enum PayloadCase
{
    None = 0,
    Weather = 10,
    Seismic = 11,
}

/// <summary>Weather measurements (units as in readings.proto).</summary>
#pragma warning disable CA1051 // filled field by field by the decoder (protobuf merge semantics)
public struct WeatherValues
{
    public double TemperatureC;
    public double RelativeHumidityPct;
    public double PressureHpa;
    public double WindSpeedMps;
    public double WindDirectionDeg;
    public double RainMmph;
}

/// <summary>Seismic measurements (units as in readings.proto).</summary>
public struct SeismicValues
{
    public double Magnitude;
    public double DepthKm;
    public double PeakGroundAccelerationG;
    public double AccelerationXMps2;
    public double AccelerationYMps2;
    public double AccelerationZMps2;
}
#pragma warning restore CA1051

/// <summary>
/// One decoded reading, viewing the event body it came from: the device id is a UTF-8 slice of that
/// body, so decoding allocates nothing. A ref struct because it must not outlive the body's buffer.
/// </summary>
// Public fields, not properties: the decoder fills them by reference on the hot path, and a ref
// struct cannot be observed by anything that would need encapsulation.
#pragma warning disable CA1051
public ref struct ReadingView
{
    /// <summary>The device id's UTF-8 bytes (a slice of the event body).</summary>
    public ReadOnlySpan<byte> DeviceIdUtf8;

    /// <summary>The proto's kind; any number the wire carries (unknown ones are kept so they can be reported).</summary>
    public SensorKind Kind;

    /// <summary>Per-device sequence number, from 1.</summary>
    public ulong Sequence;

    /// <summary>True when observed_at was present.</summary>
    public bool HasObservedAt;

    /// <summary>observed_at seconds since the Unix epoch.</summary>
    public long ObservedSeconds;

    /// <summary>observed_at nanoseconds within the second.</summary>
    public int ObservedNanos;

    /// <summary>True when location was present.</summary>
    public bool HasLocation;

    public double Latitude;
    public double Longitude;
    public double AltitudeM;

    public PayloadCase Payload;
    public WeatherValues Weather;
    public SeismicValues Seismic;

    /// <summary>The reading's whole encoded message, for forwarding and dead-lettering it unchanged.</summary>
    public ReadOnlySpan<byte> Raw;

    /// <summary>observed_at as a UTC instant; only meaningful when <see cref="HasObservedAt"/>.</summary>
    public readonly DateTimeOffset ObservedAt =>
        DateTimeOffset.FromUnixTimeSeconds(ObservedSeconds).AddTicks(ObservedNanos / 100);
}
#pragma warning restore CA1051
