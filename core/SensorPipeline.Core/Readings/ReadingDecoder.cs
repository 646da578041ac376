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

    /// <summary>Decodes one reading; false when the bytes are not a well-formed message.</summary>
    public static bool TryDecode(ReadOnlySpan<byte> raw, out ReadingView reading)
    {
        reading = default;
        reading.Raw = raw;
        var reader = new ProtoReader(raw);
        while (!reader.End)
        {
            if (!reader.TryReadTag(out var field, out var wire))
            {
                return false;
            }

            var ok = (field, wire) switch
            {
                (1, WireType.LengthDelimited) => reader.TryReadLengthDelimited(out reading.DeviceIdUtf8),
                (2, WireType.Varint) => TryReadKind(ref reader, out reading.Kind),
                (3, WireType.Varint) => reader.TryReadVarint(out reading.Sequence),
                (4, WireType.LengthDelimited) => reader.TryReadLengthDelimited(out var timestamp) && TryReadTimestamp(timestamp, ref reading),
                (5, WireType.LengthDelimited) => reader.TryReadLengthDelimited(out var location) && TryReadLocation(location, ref reading),
                (10, WireType.LengthDelimited) => reader.TryReadLengthDelimited(out var weather) && TryReadWeather(weather, ref reading),
                (11, WireType.LengthDelimited) => reader.TryReadLengthDelimited(out var seismic) && TryReadSeismic(seismic, ref reading),
                _ => reader.TrySkip(wire),
            };
            if (!ok)
            {
                return false;
            }
        }

        return true;
    }

    private static bool TryReadInt32(ref ProtoReader reader, out int value)
    {
        // proto3 int32/enum: negative values are sign-extended to ten bytes; truncation is the spec'd behaviour.
        var ok = reader.TryReadVarint(out var raw);
        value = unchecked((int)raw);
        return ok;
    }

    private static bool TryReadKind(ref ProtoReader reader, out SensorKind kind)
    {
        var ok = TryReadInt32(ref reader, out var number);
        kind = (SensorKind)number;
        return ok;
    }

    private static bool TryReadTimestamp(ReadOnlySpan<byte> body, scoped ref ReadingView reading)
    {
        reading.HasObservedAt = true;
        var reader = new ProtoReader(body);
        while (!reader.End)
        {
            if (!reader.TryReadTag(out var field, out var wire))
            {
                return false;
            }

            bool ok;
            if (field == 1 && wire == WireType.Varint)
            {
                ok = reader.TryReadVarint(out var seconds);
                reading.ObservedSeconds = unchecked((long)seconds);
            }
            else if (field == 2 && wire == WireType.Varint)
            {
                ok = TryReadInt32(ref reader, out reading.ObservedNanos);
            }
            else
            {
                ok = reader.TrySkip(wire);
            }

            if (!ok)
            {
                return false;
            }
        }

        return true;
    }

    private static bool TryReadLocation(ReadOnlySpan<byte> body, scoped ref ReadingView reading)
    {
        reading.HasLocation = true;
        var reader = new ProtoReader(body);
        while (!reader.End)
        {
            if (!reader.TryReadTag(out var field, out var wire))
            {
                return false;
            }

            var ok = (field, wire) switch
            {
                (1, WireType.Fixed64) => reader.TryReadDouble(out reading.Latitude),
                (2, WireType.Fixed64) => reader.TryReadDouble(out reading.Longitude),
                (3, WireType.Fixed64) => reader.TryReadDouble(out reading.AltitudeM),
                _ => reader.TrySkip(wire),
            };
            if (!ok)
            {
                return false;
            }
        }

        return true;
    }

    private static bool TryReadWeather(ReadOnlySpan<byte> body, scoped ref ReadingView reading)
    {
        if (reading.Payload != PayloadCase.Weather)
        {
            // A oneof switching case starts from a fresh message, as generated code does.
            reading.Weather = default;
            reading.Payload = PayloadCase.Weather;
        }

        var reader = new ProtoReader(body);
        ref var w = ref reading.Weather;
        while (!reader.End)
        {
            if (!reader.TryReadTag(out var field, out var wire))
            {
                return false;
            }

            var ok = (field, wire) switch
            {
                (1, WireType.Fixed64) => reader.TryReadDouble(out w.TemperatureC),
                (2, WireType.Fixed64) => reader.TryReadDouble(out w.RelativeHumidityPct),
                (3, WireType.Fixed64) => reader.TryReadDouble(out w.PressureHpa),
                (4, WireType.Fixed64) => reader.TryReadDouble(out w.WindSpeedMps),
                (5, WireType.Fixed64) => reader.TryReadDouble(out w.WindDirectionDeg),
                (6, WireType.Fixed64) => reader.TryReadDouble(out w.RainMmph),
                _ => reader.TrySkip(wire),
            };
            if (!ok)
            {
                return false;
            }
        }

        return true;
    }

    private static bool TryReadSeismic(ReadOnlySpan<byte> body, scoped ref ReadingView reading)
    {
        if (reading.Payload != PayloadCase.Seismic)
        {
            reading.Seismic = default;
            reading.Payload = PayloadCase.Seismic;
        }

        var reader = new ProtoReader(body);
        ref var s = ref reading.Seismic;
        while (!reader.End)
        {
            if (!reader.TryReadTag(out var field, out var wire))
            {
                return false;
            }

            var ok = (field, wire) switch
            {
                (1, WireType.Fixed64) => reader.TryReadDouble(out s.Magnitude),
                (2, WireType.Fixed64) => reader.TryReadDouble(out s.DepthKm),
                (3, WireType.Fixed64) => reader.TryReadDouble(out s.PeakGroundAccelerationG),
                (4, WireType.Fixed64) => reader.TryReadDouble(out s.AccelerationXMps2),
                (5, WireType.Fixed64) => reader.TryReadDouble(out s.AccelerationYMps2),
                (6, WireType.Fixed64) => reader.TryReadDouble(out s.AccelerationZMps2),
                _ => reader.TrySkip(wire),
            };
            if (!ok)
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>True when a timestamp is inside the proto Timestamp's valid range.</summary>
    internal static bool IsValidTimestamp(long seconds, int nanos) =>
        seconds is >= -62135596800 and <= MaxTimestampSeconds && nanos is >= 0 and <= 999_999_999;
}
