using System.Buffers.Text;
using System.Text;
using System.Text.Json;

namespace SensorPipeline.Functions.Invocation;

/// <summary>The streaming half of the parser: string values read straight from the raw bytes, never held whole.</summary>
internal sealed partial class RequestStreamParser
{
    /// <summary>The trigger's array text is unescaped into the reader 64 KiB at a time.</summary>
    private const int UnescapePiece = 64 * 1024;

    private enum StringMode
    {
        None,
        Skip,
        Trigger,
    }

    private StringMode _stringMode;
    private bool _stringOpened;
    private TriggerArrayReader? _trigger;

    /// <summary>Consumes the current string value's bytes from <paramref name="raw"/>; <paramref name="closed"/> once past its closing quote.</summary>
    private int ScanString(ReadOnlySpan<byte> raw, out bool closed)
    {
        closed = false;
        var i = 0;
        if (!_stringOpened)
        {
            while (i < raw.Length && IsWhitespace(raw[i]))
            {
                i++;
            }

            if (i == raw.Length)
            {
                return i;
            }

            // PeekValue saw the quote already.
            _stringOpened = true;
            i++;
        }

        i += _stringMode == StringMode.Skip ? SkipString(raw[i..], out closed) : UnescapeTrigger(raw[i..], out closed);
        if (closed)
        {
            EndString();
        }

        return i;
    }

    private void EndString()
    {
        if (_stringMode == StringMode.Trigger)
        {
            _trigger!.Complete();
            _trigger.Dispose();
            _trigger = null;
        }

        _stringMode = StringMode.None;
        _stringOpened = false;

        // The token reader stopped after the property name; show it a stand-in value so its state moves past the
        // value (the state records nesting and the last token kind, not the value's bytes).
        var resume = new Utf8JsonReader("\"\""u8, isFinalBlock: false, _state);
        resume.Read();
        _state = resume.CurrentState;
    }

    private static int SkipString(ReadOnlySpan<byte> raw, out bool closed)
    {
        closed = false;
        var i = 0;
        while (true)
        {
            var next = raw[i..].IndexOfAny((byte)'"', (byte)'\\');
            if (next < 0)
            {
                return raw.Length;
            }

            i += next;
            if (raw[i] == '"')
            {
                closed = true;
                return i + 1;
            }

            if (i + 1 >= raw.Length)
            {
                return i; // an escape cut by the window's end: read it again with what follows
            }

            i += 2;
        }
    }

    /// <summary>Unescapes the trigger's string into the array reader, which decodes each element as it completes.</summary>
    private int UnescapeTrigger(ReadOnlySpan<byte> raw, out bool closed)
    {
        closed = false;
        var trigger = _trigger!;
        var i = 0;
        while (i < raw.Length)
        {
            var destination = trigger.GetSpan(Math.Clamp(raw.Length - i, 4, UnescapePiece));
            var written = 0;
            var waiting = false;
            while (i < raw.Length && destination.Length - written >= 4)
            {
                var run = raw.Slice(i, Math.Min(raw.Length - i, destination.Length - written));
                var stop = run.IndexOfAny((byte)'"', (byte)'\\');
                var plain = stop < 0 ? run : run[..stop];
                if (plain.IndexOfAnyInRange((byte)0, (byte)0x1F) is var control and >= 0)
                {
                    throw new InvalidInvocationException($"The request is not well-formed JSON of the custom-handler shape: {_triggerPath} holds an unescaped control character (0x{plain[control]:X2}).");
                }

                plain.CopyTo(destination[written..]);
                written += plain.Length;
                i += plain.Length;
                if (stop < 0)
                {
                    continue;
                }

                if (raw[i] == '"')
                {
                    trigger.Advance(written);
                    closed = true;
                    return i + 1;
                }

                var used = Unescape(raw[i..], destination[written..], out var produced);
                if (used == 0)
                {
                    waiting = true;
                    break;
                }

                i += used;
                written += produced;
            }

            trigger.Advance(written);
            if (waiting)
            {
                break;
            }
        }

        return i;
    }

    /// <summary>One escape sequence at the start of <paramref name="raw"/>: bytes consumed, or 0 when it is cut off by the window's end.</summary>
    private int Unescape(ReadOnlySpan<byte> raw, Span<byte> destination, out int produced)
    {
        produced = 1;
        if (raw.Length < 2)
        {
            return 0;
        }

        if (raw[1] == (byte)'u')
        {
            return UnescapeUnicode(raw, destination, ref produced);
        }

        destination[0] = raw[1] switch
        {
            (byte)'"' or (byte)'\\' or (byte)'/' => raw[1],
            (byte)'b' => (byte)'\b',
            (byte)'f' => (byte)'\f',
            (byte)'n' => (byte)'\n',
            (byte)'r' => (byte)'\r',
            (byte)'t' => (byte)'\t',
            _ => throw new InvalidInvocationException($"The request is not well-formed JSON of the custom-handler shape: {_triggerPath} holds an invalid escape '\\{(char)raw[1]}'."),
        };
        return 2;
    }

    /// <summary>A <c>\uXXXX</c> escape (two for a surrogate pair) as UTF-8: bytes consumed, or 0 when it is cut off.</summary>
    private int UnescapeUnicode(ReadOnlySpan<byte> raw, Span<byte> destination, ref int produced)
    {
        if (raw.Length < 6)
        {
            return 0;
        }

        var unit = Hex(raw.Slice(2, 4));
        var consumed = 6;
        var scalar = unit;
        if (char.IsHighSurrogate((char)unit))
        {
            if (raw.Length < 12)
            {
                return 0;
            }

            var low = raw[6] == '\\' && raw[7] == 'u' ? Hex(raw.Slice(8, 4)) : -1;
            if (!char.IsLowSurrogate((char)low) || low < 0)
            {
                throw new InvalidInvocationException($"The request is not well-formed JSON of the custom-handler shape: {_triggerPath} holds a lone surrogate \\u{unit:X4}.");
            }

            scalar = char.ConvertToUtf32((char)unit, (char)low);
            consumed = 12;
        }
        else if (char.IsLowSurrogate((char)unit))
        {
            throw new InvalidInvocationException($"The request is not well-formed JSON of the custom-handler shape: {_triggerPath} holds a lone surrogate \\u{unit:X4}.");
        }

        produced = new Rune(scalar).EncodeToUtf8(destination);
        return consumed;
    }

    private int Hex(ReadOnlySpan<byte> four) =>
        Utf8Parser.TryParse(four, out ushort value, out var used, 'X') && used == 4
            ? value
            : throw new InvalidInvocationException($"The request is not well-formed JSON of the custom-handler shape: {_triggerPath} holds an invalid \\u escape.");
}
