using System.CommandLine;
using System.CommandLine.Parsing;
using System.Globalization;

namespace SensorPipeline.CommandLine;

/// <summary>
/// The one duration syntax: a number with a unit, <c>500ms</c>, <c>30s</c>, <c>5m</c>, <c>2h</c>, <c>7d</c>, or a
/// TimeSpan (<c>00:05:00</c>, <c>1.00:00:00</c>); never negative unless the option says it is signed (<c>-10m</c>).
/// </summary>
public static class Durations
{
    /// <summary>How the syntax reads in help and errors.</summary>
    public const string Syntax = "500ms, 30s, 5m, 2h, 7d or 00:05:00";

    private static readonly (string Suffix, double Seconds)[] Units = [("ms", 1e-3), ("s", 1), ("m", 60), ("h", 3600), ("d", 86400)];

    /// <summary>Parses a duration of zero or more.</summary>
    public static bool TryParse(string text, out TimeSpan value)
    {
        ArgumentNullException.ThrowIfNull(text);
        var trimmed = text.Trim();
        foreach (var (suffix, seconds) in Units)
        {
            if (trimmed.EndsWith(suffix, StringComparison.OrdinalIgnoreCase)
                && !(suffix == "s" && trimmed.EndsWith("ms", StringComparison.OrdinalIgnoreCase))
                && double.TryParse(trimmed[..^suffix.Length], NumberStyles.Float, CultureInfo.InvariantCulture, out var number)
                && double.IsFinite(number) && number >= 0 && number * seconds < TimeSpan.MaxValue.TotalSeconds)
            {
                value = TimeSpan.FromSeconds(number * seconds);
                return true;
            }
        }

        return TimeSpan.TryParse(trimmed, CultureInfo.InvariantCulture, out value) && value >= TimeSpan.Zero && trimmed.Contains(':', StringComparison.Ordinal);
    }

    /// <summary>Parses a duration that may be negative (a clock behind): <c>-10m</c>, <c>2m</c>, <c>+2m</c>.</summary>
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

    /// <summary>A duration option with a default, at least <paramref name="minimum"/> (default zero).</summary>
    public static Option<TimeSpan> Option(string name, string description, TimeSpan defaultValue, TimeSpan? minimum = null) => new(name)
    {
        Description = description,
        DefaultValueFactory = _ => defaultValue,
        CustomParser = result => Parse(result, minimum ?? TimeSpan.Zero),
        HelpName = "duration",
    };

    /// <summary>A duration option that may be left out (null), at least <paramref name="minimum"/> (default zero).</summary>
    public static Option<TimeSpan?> Optional(string name, string description, TimeSpan? minimum = null) => new(name)
    {
        Description = description,
        CustomParser = result => Parse(result, minimum ?? TimeSpan.Zero),
        HelpName = "duration",
    };

    /// <summary>A signed duration option (write <c>--name=-10m</c>: a leading '-' alone would read as an option).</summary>
    public static Option<TimeSpan> SignedOption(string name, string description) => new(name)
    {
        Description = description,
        CustomParser = ParseSigned,
        HelpName = "duration",
    };

    /// <summary>The System.CommandLine parser of a duration of zero or more (a <c>CustomParser</c>).</summary>
    public static TimeSpan Parse(ArgumentResult result) => Parse(result, TimeSpan.Zero);

    /// <summary>The System.CommandLine parser of a signed duration (a <c>CustomParser</c>).</summary>
    public static TimeSpan ParseSigned(ArgumentResult result) => ParseWith(result, TryParseSigned, TimeSpan.MinValue, "a signed duration (2m, -10m, +30s)");

    /// <summary>The System.CommandLine parser of the syntax: an error naming the option and the syntax when it does not read.</summary>
    public static TimeSpan Parse(ArgumentResult result, TimeSpan minimum) => ParseWith(result, TryParse, minimum, $"a duration ({Syntax})");

    private delegate bool TryParser(string text, out TimeSpan value);

    private static TimeSpan ParseWith(ArgumentResult result, TryParser tryParse, TimeSpan minimum, string expected)
    {
        ArgumentNullException.ThrowIfNull(result);
        var text = result.Tokens.Count > 0 ? result.Tokens[0].Value : string.Empty;
        if (!tryParse(text, out var value))
        {
            result.AddError($"{OptionName.Of(result)}: '{text}' is not {expected}.");
            return default;
        }

        if (value < minimum)
        {
            result.AddError($"{OptionName.Of(result)}: '{text}' is less than {minimum.TotalSeconds.ToString(CultureInfo.InvariantCulture)} s.");
        }

        return value;
    }
}
