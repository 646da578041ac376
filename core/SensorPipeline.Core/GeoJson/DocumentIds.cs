using System.Buffers.Text;

namespace SensorPipeline.Core.GeoJson;

/// <summary>
/// Deterministic Cosmos DB ids from content, so a redelivered reading overwrites itself instead of
/// duplicating. A reading's id is <c>{deviceId}:{sequence}</c>: readable, unique within its partition
/// (the partition key is the device id, and the validator keeps '/', '\', '?', '#' out of device ids).
/// </summary>
public static class DocumentIds
{
    /// <summary>Largest id in bytes: device id, separator, 20-digit sequence.</summary>
    public const int MaxReadingIdBytes = Readings.ReadingValidator.MaxDeviceIdBytes + 1 + 20;

    /// <summary>Writes a reading's id as UTF-8 into <paramref name="destination"/> and returns its length.</summary>
    public static int WriteReadingId(ReadOnlySpan<byte> deviceIdUtf8, ulong sequence, Span<byte> destination)
    {
        deviceIdUtf8.CopyTo(destination);
        destination[deviceIdUtf8.Length] = (byte)':';
        if (!Utf8Formatter.TryFormat(sequence, destination[(deviceIdUtf8.Length + 1)..], out var digits))
        {
            throw new ArgumentException("Destination too small for a reading id.", nameof(destination));
        }

        return deviceIdUtf8.Length + 1 + digits;
    }

    /// <summary>A reading's id as a string (for the Cosmos SDK's item id parameter).</summary>
    public static string ReadingId(string deviceId, ulong sequence) =>
        string.Create(System.Globalization.CultureInfo.InvariantCulture, $"{deviceId}:{sequence}");
}
