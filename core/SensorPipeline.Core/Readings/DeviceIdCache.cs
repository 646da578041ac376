using System.Text;

namespace SensorPipeline.Core.Readings;

/// <summary>
/// Turns a device id's UTF-8 bytes into a string, allocating once per distinct device rather than once
/// per reading: a fleet sends many readings per device, and the Cosmos SDK needs the partition key as a
/// string. Bounded: past <see cref="Capacity"/> entries it starts over (devices come and go).
/// Not thread-safe; one per processing instance.
/// </summary>
public sealed class DeviceIdCache
{
    private readonly Dictionary<string, string> _strings = new(StringComparer.Ordinal);
    private readonly Dictionary<string, string>.AlternateLookup<ReadOnlySpan<char>> _lookup;

    public DeviceIdCache(int capacity = 100_000)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(capacity, 1);
        Capacity = capacity;
        _lookup = _strings.GetAlternateLookup<ReadOnlySpan<char>>();
    }

    public int Capacity { get; }

    /// <summary>The string for a valid (UTF-8, ≤ 128 bytes) device id.</summary>
    public string Get(ReadOnlySpan<byte> utf8)
    {
        Span<char> chars = stackalloc char[ReadingValidator.MaxDeviceIdBytes];
        var count = Encoding.UTF8.GetChars(utf8, chars);
        var key = chars[..count];
        if (_lookup.TryGetValue(key, out var existing))
        {
            return existing;
        }

        if (_strings.Count >= Capacity)
        {
            _strings.Clear();
        }

        var created = new string(key);
        _strings[created] = created;
        return created;
    }
}
