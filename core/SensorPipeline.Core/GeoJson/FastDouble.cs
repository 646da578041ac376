using System.Buffers.Text;
using System.Text.Json;

namespace SensorPipeline.Core.GeoJson;

/// <summary>
/// Writes doubles that have few decimal places (what sensors send: 12.5 °C, 1013.25 hPa) without
/// the general shortest-round-trip algorithm, which is most of the GeoJSON writer's CPU time.
/// The fast path is exact, not approximate: for the first k ≤ 6 with m = value·10^k integral and
/// |m| &lt; 2^53, it checks m / 10^k == value in double arithmetic. Both that division and parsing the
/// decimal text "m·10^-k" are correctly rounded results of the same rational number, so the text
/// parses back to exactly <c>value</c>. Anything else falls back to Utf8JsonWriter's own formatting.
/// </summary>
public static class FastDouble
{
    private const double TwoTo53 = 9007199254740992d;
    private static readonly double[] Powers = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000];

    /// <summary>Writes <paramref name="value"/> (finite) as a property.</summary>
    public static void WriteNumber(Utf8JsonWriter writer, JsonEncodedText name, double value)
    {
        ArgumentNullException.ThrowIfNull(writer);
        Span<byte> text = stackalloc byte[32];
        if (TryFormat(value, text, out var length))
        {
            writer.WritePropertyName(name);
            writer.WriteRawValue(text[..length], skipInputValidation: true);
        }
        else
        {
            writer.WriteNumber(name, value);
        }
    }

    /// <summary>Writes <paramref name="value"/> (finite) as an array element.</summary>
    public static void WriteNumberValue(Utf8JsonWriter writer, double value)
    {
        ArgumentNullException.ThrowIfNull(writer);
        Span<byte> text = stackalloc byte[32];
        if (TryFormat(value, text, out var length))
        {
            writer.WriteRawValue(text[..length], skipInputValidation: true);
        }
        else
        {
            writer.WriteNumberValue(value);
        }
    }

    /// <summary>Formats with at most 6 decimals when that is exact; false otherwise.</summary>
    public static bool TryFormat(double value, Span<byte> destination, out int written)
    {
        written = 0;
        if (value == 0)
        {
            destination[0] = (byte)'0'; // also turns -0 into 0, which parses to a value equal to -0
            written = 1;
            return true;
        }

        for (var k = 0; k < Powers.Length; k++)
        {
            var scaled = value * Powers[k];
            if (Math.Abs(scaled) >= TwoTo53)
            {
                return false;
            }

            if (scaled != Math.Floor(scaled) || scaled / Powers[k] != value)
            {
                continue;
            }

            return TryWriteScaled((long)scaled, k, destination, out written);
        }

        return false;
    }

    private static bool TryWriteScaled(long mantissa, int decimals, Span<byte> destination, out int written)
    {
        written = 0;
        var negative = mantissa < 0;
        var magnitude = (ulong)Math.Abs(mantissa);
        Span<byte> digits = stackalloc byte[20];
        if (!Utf8Formatter.TryFormat(magnitude, digits, out var count))
        {
            return false;
        }

        var position = 0;
        if (negative)
        {
            destination[position++] = (byte)'-';
        }

        if (decimals == 0)
        {
            digits[..count].CopyTo(destination[position..]);
            written = position + count;
            return true;
        }

        var integerDigits = count - decimals;
        if (integerDigits <= 0)
        {
            destination[position++] = (byte)'0';
            destination[position++] = (byte)'.';
            for (var i = integerDigits; i < 0; i++)
            {
                destination[position++] = (byte)'0';
            }

            digits[..count].CopyTo(destination[position..]);
            written = position + count;
            return true;
        }

        digits[..integerDigits].CopyTo(destination[position..]);
        position += integerDigits;
        destination[position++] = (byte)'.';
        digits[integerDigits..count].CopyTo(destination[position..]);
        written = position + count - integerDigits;
        return true;
    }
}
