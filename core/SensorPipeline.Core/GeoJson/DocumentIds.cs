using System.Buffers.Text;
using System.Globalization;

namespace SensorPipeline.Core.GeoJson;

/// <summary>
/// Deterministic Cosmos DB ids from content, so a redelivered reading overwrites itself instead of duplicating.
/// A reading's id is <c>{deviceId}:{sequence}:{observed-at UTC ticks}</c>: every field comes from the reading's own
/// bytes, so each redelivery of it (a producer's retry, the host re-running a batch) gives the same id; and a
/// different reading that reuses a sequence number — the device's counter restarted after a reboot or a replaced
/// board — was observed at another time, so it gets its own document instead of overwriting the older reading. The
/// reading schema has no boot or epoch counter to tell restarts apart; the observed time is the one field that does.
/// Unique within its partition (the partition key is the device id, and the validator keeps '/', '\', '?', '#' out of
/// device ids); the two numbers are the last two ':'-separated fields, so the id reads unambiguously from the right.
/// </summary>
public static class DocumentIds
{
    /// <summary>Largest id in bytes: device id, separator, 20-digit sequence, separator, 19-digit ticks.</summary>
    public const int MaxReadingIdBytes = Readings.ReadingValidator.MaxDeviceIdBytes + 1 + 20 + 1 + 19;

    /// <summary>Writes a reading's id as UTF-8 into <paramref name="destination"/> and returns its length.</summary>
    public static int WriteReadingId(ReadOnlySpan<byte> deviceIdUtf8, ulong sequence, DateTimeOffset observedAt, Span<byte> destination)
    {
        deviceIdUtf8.CopyTo(destination);
        var length = deviceIdUtf8.Length;
        destination[length++] = (byte)':';
        if (!Utf8Formatter.TryFormat(sequence, destination[length..], out var digits))
        {
            throw new ArgumentException("Destination too small for a reading id.", nameof(destination));
        }

        length += digits;
        destination[length++] = (byte)':';
        if (!Utf8Formatter.TryFormat(observedAt.UtcTicks, destination[length..], out digits))
        {
            throw new ArgumentException("Destination too small for a reading id.", nameof(destination));
        }

        return length + digits;
    }

    /// <summary>A reading's id as a string (for the Cosmos SDK's item id parameter).</summary>
    public static string ReadingId(string deviceId, ulong sequence, DateTimeOffset observedAt) =>
        string.Create(CultureInfo.InvariantCulture, $"{deviceId}:{sequence}:{observedAt.UtcTicks}");
}
