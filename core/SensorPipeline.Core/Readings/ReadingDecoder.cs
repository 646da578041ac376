using SensorPipeline.Core.Wire;
using SensorKind = SensorPipeline.Protos.SensorKind;

namespace SensorPipeline.Core.Readings;

/// <summary>
/// Decodes the proto's <c>Reading</c> message from its wire bytes into a <see cref="ReadingView"/>,
/// with Google.Protobuf's semantics: fields in any order, the last value of a scalar wins, repeated
/// sub-messages merge, a field whose wire type does not match the schema is skipped as unknown.
/// </summary>
public static class ReadingDecoder
{
    private const long MaxTimestampSeconds = 253402300799; // 9999-12-31T23:59:59Z, the proto Timestamp's range

    /// <summary>Decodes one reading with the product's kinds (<see cref="SensorKindCatalog.Default"/>); false when the bytes are not a well-formed message.</summary>
    public static bool TryDecode(ReadOnlySpan<byte> raw, out ReadingView reading) => TryDecode(raw, SensorKindCatalog.Default, out reading);

    /// <summary>
    /// Decodes one reading; a length-delimited field that is a payload field of one of <paramref name="kinds"/> is read
    /// as that kind's measurements. False when the bytes are not a well-formed message.
    /// </summary>
    public static bool TryDecode(ReadOnlySpan<byte> raw, SensorKindCatalog kinds, out ReadingView reading)
    {
        ArgumentNullException.ThrowIfNull(kinds);
        reading = default;
        reading.Raw = raw;
        var fields = new ProtoFields(raw);
        while (fields.MoveNext(out var number, out var wireType))
        {
            var ok = true;
            switch (number, wireType)
            {
                case (1, WireType.LengthDelimited):
                    reading.DeviceIdUtf8 = fields.ReadBytes();
                    break;
                case (2, WireType.Varint):
                    reading.Kind = (SensorKind)fields.ReadInt32();
                    break;
                case (3, WireType.Varint):
                    reading.Sequence = fields.ReadVarint();
                    break;
                case (4, WireType.LengthDelimited):
                    ok = TryReadTimestamp(fields.ReadBytes(), ref reading);
                    break;
                case (5, WireType.LengthDelimited):
                    ok = TryReadLocation(fields.ReadBytes(), ref reading);
                    break;
                case (_, WireType.LengthDelimited) when kinds.IsPayloadField(number):
                    ok = TryReadMeasurements(number, fields.ReadBytes(), ref reading);
                    break;
            }

            if (!ok)
            {
                return false;
            }
        }

        reading.Definition = kinds.Find(reading.Kind);
        return !fields.Malformed;
    }

    private static bool TryReadTimestamp(ReadOnlySpan<byte> body, scoped ref ReadingView reading)
    {
        reading.HasObservedAt = true;
        var fields = new ProtoFields(body);
        while (fields.MoveNext(out var number, out var wireType))
        {
            switch (number, wireType)
            {
                case (1, WireType.Varint):
                    reading.ObservedSeconds = unchecked((long)fields.ReadVarint());
                    break;
                case (2, WireType.Varint):
                    reading.ObservedNanos = fields.ReadInt32();
                    break;
            }
        }

        return !fields.Malformed;
    }

    private static bool TryReadLocation(ReadOnlySpan<byte> body, scoped ref ReadingView reading)
    {
        reading.HasLocation = true;
        var fields = new ProtoFields(body);
        while (fields.MoveNext(out var number, out var wireType))
        {
            switch (number, wireType)
            {
                case (1, WireType.Fixed64):
                    reading.Latitude = fields.ReadDouble();
                    break;
                case (2, WireType.Fixed64):
                    reading.Longitude = fields.ReadDouble();
                    break;
                case (3, WireType.Fixed64):
                    reading.AltitudeM = fields.ReadDouble();
                    break;
            }
        }

        return !fields.Malformed;
    }

    /// <summary>A payload message: every field is a double, field n the measurement n - 1 (as sensor-kinds.json says).</summary>
    private static bool TryReadMeasurements(int payloadField, ReadOnlySpan<byte> body, scoped ref ReadingView reading)
    {
        if (reading.PayloadField != payloadField)
        {
            // A oneof switching case starts from a fresh message, as generated code does.
            reading.Measurements = default;
            reading.PayloadField = payloadField;
        }

        var fields = new ProtoFields(body);
        while (fields.MoveNext(out var number, out var wireType))
        {
            if (wireType == WireType.Fixed64 && (uint)(number - 1) < MeasurementValues.Capacity)
            {
                reading.Measurements[number - 1] = fields.ReadDouble();
            }
        }

        return !fields.Malformed;
    }

    /// <summary>True when a timestamp is inside the proto Timestamp's valid range.</summary>
    internal static bool IsValidTimestamp(long seconds, int nanos) =>
        seconds is >= -62135596800 and <= MaxTimestampSeconds && nanos is >= 0 and <= 999_999_999;
}
