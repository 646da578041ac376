namespace SensorPipeline.Functions.Invocation;

/// <summary>
/// The string value being read straight from the raw bytes as they arrive, never held whole: skipped (a value nobody
/// reads, which may be as large as the events) or unescaped into the trigger's <see cref="TriggerArrayReader"/>. A
/// mutable struct held in a field of <see cref="RequestStreamParser"/>, so a request allocates nothing more for it.
/// </summary>
internal struct StreamedString : IDisposable
{
    /// <summary>The trigger's array text is unescaped into the reader 64 KiB at a time.</summary>
    private const int UnescapePiece = 64 * 1024;

    private Mode _mode;
    private bool _opened;
    private TriggerArrayReader? _trigger;
    private string _what;

    private enum Mode
    {
        None,
        Skip,
        Trigger,
    }

    /// <summary>True between a property name whose string value is streamed and that string's closing quote.</summary>
    public readonly bool IsActive => _mode != Mode.None;

    /// <summary>The value after the property name just read is a string to skip.</summary>
    public void BeginSkip() => _mode = Mode.Skip;

    /// <summary>The value after the property name just read is the trigger's string, unescaped into <paramref name="trigger"/>
    /// (which this value disposes); <paramref name="what"/> names it in errors.</summary>
    public void BeginTrigger(TriggerArrayReader trigger, string what)
    {
        _trigger = trigger;
        _what = what;
        _mode = Mode.Trigger;
    }

    /// <summary>The events are dropped: a trigger string being read is skipped from here on, its reader released.</summary>
    public void SkipTrigger()
    {
        if (_mode == Mode.Trigger)
        {
            _trigger!.Dispose();
            _trigger = null;
            _mode = Mode.Skip;
        }
    }

    /// <summary>Consumes the string's bytes from <paramref name="raw"/>; <paramref name="closed"/> once past its closing
    /// quote (the trigger's array then complete).</summary>
    public int Scan(ReadOnlySpan<byte> raw, out bool closed)
    {
        closed = false;
        var i = 0;
        if (!_opened)
        {
            while (i < raw.Length && JsonBytes.IsWhitespace(raw[i]))
            {
                i++;
            }

            if (i == raw.Length)
            {
                return i;
            }

            // The parser saw the quote already (JsonBytes.PeekValue).
            _opened = true;
            i++;
        }

        i += _mode == Mode.Skip ? SkipString(raw[i..], out closed) : UnescapeTrigger(raw[i..], out closed);
        if (closed)
        {
            End();
        }

        return i;
    }

    public readonly void Dispose() => _trigger?.Dispose();

    private void End()
    {
        if (_mode == Mode.Trigger)
        {
            _trigger!.Complete();
            _trigger.Dispose();
            _trigger = null;
        }

        _mode = Mode.None;
        _opened = false;
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
    private readonly int UnescapeTrigger(ReadOnlySpan<byte> raw, out bool closed)
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
                    throw new InvalidInvocationException($"The request is not well-formed JSON of the custom-handler shape: {_what} holds an unescaped control character (0x{plain[control]:X2}).");
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

                var used = JsonEscapes.Unescape(raw[i..], destination[written..], _what, out var produced);
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
}
