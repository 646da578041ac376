using System.Buffers.Text;
using System.Text;

namespace SensorPipeline.Functions.Invocation;

/// <summary>JSON string escapes turned into UTF-8, one at a time, for a string read piece by piece: an escape cut off by
/// the window's end is reported (0 bytes consumed), to be read again with what follows.</summary>
internal static class JsonEscapes
{
    /// <summary>One escape sequence at the start of <paramref name="raw"/>: bytes consumed, or 0 when it is cut off by
    /// the window's end. <paramref name="what"/> names the string in errors.</summary>
    public static int Unescape(ReadOnlySpan<byte> raw, Span<byte> destination, string what, out int produced)
    {
        produced = 1;
        if (raw.Length < 2)
        {
            return 0;
        }

        if (raw[1] == (byte)'u')
        {
            return UnescapeUnicode(raw, destination, what, ref produced);
        }

        destination[0] = raw[1] switch
        {
            (byte)'"' or (byte)'\\' or (byte)'/' => raw[1],
            (byte)'b' => (byte)'\b',
            (byte)'f' => (byte)'\f',
            (byte)'n' => (byte)'\n',
            (byte)'r' => (byte)'\r',
            (byte)'t' => (byte)'\t',
            _ => throw new InvalidInvocationException($"The request is not well-formed JSON of the custom-handler shape: {what} holds an invalid escape '\\{(char)raw[1]}'."),
        };
        return 2;
    }

    /// <summary>A <c>\uXXXX</c> escape (two for a surrogate pair) as UTF-8: bytes consumed, or 0 when it is cut off.</summary>
    private static int UnescapeUnicode(ReadOnlySpan<byte> raw, Span<byte> destination, string what, ref int produced)
    {
        if (raw.Length < 6)
        {
            return 0;
        }

        var unit = Hex(raw.Slice(2, 4), what);
        var consumed = 6;
        var scalar = unit;
        if (char.IsHighSurrogate((char)unit))
        {
            if (raw.Length < 12)
            {
                return 0;
            }

            var low = raw[6] == '\\' && raw[7] == 'u' ? Hex(raw.Slice(8, 4), what) : -1;
            if (!char.IsLowSurrogate((char)low) || low < 0)
            {
                throw new InvalidInvocationException($"The request is not well-formed JSON of the custom-handler shape: {what} holds a lone surrogate \\u{unit:X4}.");
            }

            scalar = char.ConvertToUtf32((char)unit, (char)low);
            consumed = 12;
        }
        else if (char.IsLowSurrogate((char)unit))
        {
            throw new InvalidInvocationException($"The request is not well-formed JSON of the custom-handler shape: {what} holds a lone surrogate \\u{unit:X4}.");
        }

        produced = new Rune(scalar).EncodeToUtf8(destination);
        return consumed;
    }

    private static int Hex(ReadOnlySpan<byte> four, string what) =>
        Utf8Parser.TryParse(four, out ushort value, out var used, 'X') && used == 4
            ? value
            : throw new InvalidInvocationException($"The request is not well-formed JSON of the custom-handler shape: {what} holds an invalid \\u escape.");
}
