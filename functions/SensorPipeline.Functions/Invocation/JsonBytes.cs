namespace SensorPipeline.Functions.Invocation;

/// <summary>Looks at raw JSON bytes around what the token reader returns: the request parser needs to know what a
/// value begins with before it decides to read, skip or stream it.</summary>
internal static class JsonBytes
{
    /// <summary>The first byte of the value after a property name, or -1 when the window ends before it.</summary>
    public static int PeekValue(ReadOnlySpan<byte> window, long afterName)
    {
        for (var i = (int)afterName; i < window.Length; i++)
        {
            if (!IsWhitespace(window[i]))
            {
                return window[i];
            }
        }

        return -1;
    }

    public static bool IsWhitespace(byte b) => b is (byte)' ' or (byte)'\t' or (byte)'\n' or (byte)'\r';
}
