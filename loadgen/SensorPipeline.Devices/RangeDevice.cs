using Google.Protobuf;
using SensorPipeline.Core.Readings;
using SensorPipeline.Protos;

namespace SensorPipeline.Devices;

/// <summary>
/// A device of any kind: each measurement starts somewhere in its range (sensor-kinds.json's min and max) and moves as
/// a mean-reverting random walk that never leaves it.
/// </summary>
public sealed class RangeDevice : SimulatedDevice
{
    private readonly SensorKindDefinition _kind;
    private readonly double[] _values;

    public RangeDevice(SensorKindDefinition kind, string id, Random random)
        : base(id, kind.Kind, random)
    {
        _kind = kind;
        _values = [.. kind.Measurements.Select(m => m.Min + (Random.NextDouble() * (m.Max - m.Min)))];
    }

    protected override void FillPayload(Reading reading)
    {
        for (var i = 0; i < _values.Length; i++)
        {
            var (min, max) = (_kind.Measurements[i].Min, _kind.Measurements[i].Max);
            var span = max - min;
            var centre = min + (span / 2);
            _values[i] = Math.Clamp(_values[i] + (0.02 * (centre - _values[i])) + (Gaussian() * span * 0.01), min, max);
        }

        reading.MergeFrom(PayloadEncoder.Encode(_kind, [.. _values.Select(static v => Math.Round(v, 3))]));
    }
}
