using SensorKind = SensorPipeline.Protos.SensorKind;

namespace SensorPipeline.Core.Readings;

/// <summary>
/// A reading's measurements in field order (measurement i is field i + 1 of its kind's payload message), inline so the
/// decoder allocates nothing; <see cref="SensorKindDefinition.Measurements"/> says how many are used and their names.
/// </summary>
[System.Runtime.CompilerServices.InlineArray(Capacity)]
public struct MeasurementValues
{
    /// <summary>Most measurements a kind may define.</summary>
    public const int Capacity = 16;

    private double _first;
}

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

    /// <summary>The field number of the payload the reading carries (its kind's <see cref="SensorKindDefinition.PayloadField"/>); 0 for none.</summary>
    public int PayloadField;

    /// <summary>The payload's measurements, by field number minus one.</summary>
    public MeasurementValues Measurements;

    /// <summary>The definition of <see cref="Kind"/> in the decoder's catalog; null for a kind it does not hold.</summary>
    public SensorKindDefinition? Definition;

    /// <summary>The reading's whole encoded message, for forwarding and dead-lettering it unchanged.</summary>
    public ReadOnlySpan<byte> Raw;

    /// <summary>observed_at as a UTC instant; only meaningful when <see cref="HasObservedAt"/>.</summary>
    public readonly DateTimeOffset ObservedAt =>
        DateTimeOffset.FromUnixTimeSeconds(ObservedSeconds).AddTicks(ObservedNanos / 100);
}
#pragma warning restore CA1051
