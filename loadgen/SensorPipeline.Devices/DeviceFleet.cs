using SensorPipeline.Core.Readings;

namespace SensorPipeline.Devices;

/// <summary>
/// The simulated devices in the order the packer visits them: the kinds of sensor-kinds.json take turns, so every
/// event of two or more readings mixes kinds (what the splitter must separate).
/// </summary>
public sealed class DeviceFleet
{
    private readonly SimulatedDevice[] _devices;

    /// <param name="countPerKind">Devices of each kind, in the catalog's order (<see cref="SensorKindCatalog.Default"/>).</param>
    /// <param name="seed">The seed every device's values derive from.</param>
    /// <param name="prefix">The device ids' prefix: <c>{prefix}-{kind}-0001</c>.</param>
    public DeviceFleet(IReadOnlyList<int> countPerKind, int seed, string prefix)
    {
        ArgumentNullException.ThrowIfNull(countPerKind);
        var kinds = SensorKindCatalog.Default.All;
        if (countPerKind.Count != kinds.Count || countPerKind.Any(static n => n < 0))
        {
            throw new ArgumentException($"one count of 0 or more per kind ({string.Join(", ", kinds)})", nameof(countPerKind));
        }

        if (countPerKind.Sum() == 0)
        {
            throw new ArgumentException("A fleet needs at least one device.", nameof(countPerKind));
        }

        var devices = new List<SimulatedDevice>(countPerKind.Sum());
        for (var i = 0; i < countPerKind.Max(); i++)
        {
            for (var k = 0; k < kinds.Count; k++)
            {
                if (i < countPerKind[k])
                {
                    devices.Add(DeviceModels.Create(kinds[k], DeviceId(prefix, kinds[k].Name, i), DeviceRandom(seed, k, kinds.Count, i)));
                }
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
    private static Random DeviceRandom(int seed, int kind, int kinds, int index) =>
        new(unchecked((seed * 1_000_003) + (index * kinds) + kind));
}
