using SensorPipeline.Core.Readings;
using SensorPipeline.Protos;

namespace SensorPipeline.LoadGen.Devices;

/// <summary>
/// The simulated devices in the order the packer visits them: weather and seismic alternate, so every
/// event of two or more readings mixes kinds (what the splitter must separate).
/// </summary>
internal sealed class DeviceFleet
{
    private readonly SimulatedDevice[] _devices;

    public DeviceFleet(int weatherCount, int seismicCount, int seed, string prefix)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(weatherCount);
        ArgumentOutOfRangeException.ThrowIfNegative(seismicCount);
        if (weatherCount + seismicCount == 0)
        {
            throw new ArgumentException("A fleet needs at least one device.", nameof(weatherCount));
        }

        var devices = new List<SimulatedDevice>(weatherCount + seismicCount);
        for (var i = 0; i < Math.Max(weatherCount, seismicCount); i++)
        {
            if (i < weatherCount)
            {
                devices.Add(new WeatherDevice(DeviceId(prefix, SensorKind.Weather.Name(), i), DeviceRandom(seed, 0, i)));
            }

            if (i < seismicCount)
            {
                devices.Add(new SeismicDevice(DeviceId(prefix, SensorKind.Seismic.Name(), i), DeviceRandom(seed, 1, i)));
            }
        }

        _devices = [.. devices];
    }

    public int Count => _devices.Length;

    public SimulatedDevice this[int index] => _devices[index];

    public IReadOnlyList<SimulatedDevice> Devices => _devices;

    public static string DeviceId(string prefix, string kind, int index) =>
        string.Create(System.Globalization.CultureInfo.InvariantCulture, $"{prefix}-{kind}-{index + 1:D4}");

    /// <summary>Each device's own stream, derived from the seed only (System.Random with a seed is stable across runs).</summary>
    private static Random DeviceRandom(int seed, int kind, int index) =>
        new(unchecked((seed * 1_000_003) + (index * 2) + kind));
}
