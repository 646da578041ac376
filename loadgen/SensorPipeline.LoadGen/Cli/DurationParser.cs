using System.CommandLine.Parsing;
using System.Globalization;

namespace SensorPipeline.LoadGen.Cli;

/// <summary>Durations on the command line: <c>500ms</c>, <c>30s</c>, <c>5m</c>, <c>1h</c>, or a TimeSpan (<c>00:05:00</c>).</summary>
internal static class DurationParser
{
    public static bool TryParse(string text, out TimeSpan value)
    {
        ArgumentNullException.ThrowIfNull(text);
        var trimmed = text.Trim();
        (string Suffix, double Scale)[] units = [("ms", 1e-3), ("s", 1), ("m", 60), ("h", 3600)];
        foreach (var (suffix, scale) in units)
        {
            if (trimmed.EndsWith(suffix, StringComparison.OrdinalIgnoreCase)
                && double.TryParse(trimmed[..^suffix.Length], NumberStyles.Float, CultureInfo.InvariantCulture, out var number)
                && double.IsFinite(number) && number >= 0 && number * scale < TimeSpan.MaxValue.TotalSeconds)
            {
                value = TimeSpan.FromSeconds(number * scale);
                return true;
            }
        }

        return TimeSpan.TryParse(trimmed, CultureInfo.InvariantCulture, out value) && value >= TimeSpan.Zero;
    }

    /// <summary>A duration that may be negative (a clock behind): <c>-10m</c>, <c>2m</c>, <c>+2m</c>.</summary>
    public static bool TryParseSigned(string text, out TimeSpan value)
    {
        ArgumentNullException.ThrowIfNull(text);
        var trimmed = text.Trim();
        var negative = trimmed.StartsWith('-');
        if ((negative || trimmed.StartsWith('+')) && TryParse(trimmed[1..], out var magnitude))
        {
            value = negative ? -magnitude : magnitude;
            return true;
        }

        return TryParse(trimmed, out value);
    }

    /// <summary>The System.CommandLine parser for a signed duration (write <c>--clock-skew=-10m</c>: a leading '-' would read as an option).</summary>
    public static TimeSpan ParseSigned(ArgumentResult result) => ParseWith(result, TryParseSigned, "a signed duration (use e.g. 2m, -10m or +30s)");

    /// <summary>A System.CommandLine custom parser that reports a clear error for a bad duration.</summary>
    public static TimeSpan Parse(ArgumentResult result) => ParseWith(result, TryParse, "a duration (use e.g. 500ms, 30s, 5m, 1h or 00:05:00)");

    private delegate bool TryParser(string text, out TimeSpan value);

    private static TimeSpan ParseWith(ArgumentResult result, TryParser tryParse, string expected)
    {
        ArgumentNullException.ThrowIfNull(result);
        var text = result.Tokens.Count > 0 ? result.Tokens[0].Value : "";
        if (tryParse(text, out var value))
        {
            return value;
        }

        result.AddError($"'{text}' is not {expected}.");
        return default;
    }
}
