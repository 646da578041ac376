using System.Text.Unicode;

namespace SensorPipeline.Core.Readings;

/// <summary>The rules a reading must pass to enter the pipeline; the first broken rule is the reason.</summary>
public static class ReadingValidator
{
    /// <summary>Largest device id in UTF-8 bytes. Cosmos DB allows 2 KB partition keys; a small cap keeps ids and documents compact.</summary>
    public const int MaxDeviceIdBytes = 128;

    /// <summary>Returns <see cref="DeadLetterReason.None"/> when the reading is valid.</summary>
    public static DeadLetterReason Validate(in ReadingView reading)
    {
        var id = reading.DeviceIdUtf8;
        if (id.IsEmpty)
        {
            return DeadLetterReason.MissingDeviceId;
        }

        if (!IsValidDeviceId(id))
        {
            return DeadLetterReason.InvalidDeviceId;
        }

        // The decoder sets the definition from its catalog: none means a kind the pipeline does not route.
        var kind = reading.Definition;
        if (kind is null)
        {
            return DeadLetterReason.UnknownKind;
        }

        if (reading.PayloadField != kind.PayloadField)
        {
            return DeadLetterReason.PayloadMismatch;
        }

        if (reading.Sequence == 0)
        {
            return DeadLetterReason.ZeroSequence;
        }

        if (!reading.HasObservedAt)
        {
            return DeadLetterReason.MissingObservedAt;
        }

        if (!ReadingDecoder.IsValidTimestamp(reading.ObservedSeconds, reading.ObservedNanos))
        {
            return DeadLetterReason.InvalidObservedAt;
        }

        if (!reading.HasLocation)
        {
            return DeadLetterReason.MissingLocation;
        }

        // NaN fails every comparison, so these range checks reject it too.
        if (!(reading.Latitude is >= -90 and <= 90) || !(reading.Longitude is >= -180 and <= 180) || !double.IsFinite(reading.AltitudeM))
        {
            return DeadLetterReason.InvalidCoordinates;
        }

        return MeasurementsFinite(reading, kind.Measurements.Count) ? DeadLetterReason.None : DeadLetterReason.NonFiniteMeasurement;
    }

    /// <summary>Cosmos DB ids may not contain '/', '\', '?', '#'; control characters break logs and JSON readers.</summary>
    public static bool IsValidDeviceId(ReadOnlySpan<byte> utf8)
    {
        if (utf8.Length > MaxDeviceIdBytes || !Utf8.IsValid(utf8))
        {
            return false;
        }

        foreach (var b in utf8)
        {
            if (b < 0x20 || b == 0x7F || b == (byte)'/' || b == (byte)'\\' || b == (byte)'?' || b == (byte)'#')
            {
                return false;
            }
        }

        return true;
    }

    private static bool MeasurementsFinite(in ReadingView reading, int count)
    {
        for (var i = 0; i < count; i++)
        {
            if (!double.IsFinite(reading.Measurements[i]))
            {
                return false;
            }
        }

        return true;
    }
}
