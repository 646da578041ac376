using System.CommandLine;
using System.CommandLine.Parsing;
using System.Globalization;

namespace SensorPipeline.CommandLine;

/// <summary>Rates per second: a number (<c>2500</c>, <c>0.5</c>), or with <c>k</c> (thousands) or <c>M</c>
/// (millions): <c>100k</c>, <c>1M</c>; an optional <c>/s</c> after it.</summary>
public static class Rates
{
    /// <summary>How the syntax reads in help and errors.</summary>
    public const string Syntax = "2500, 100k or 1M per second";

    /// <summary>Parses a rate above zero.</summary>
    public static bool TryParse(string text, out double perSecond)
    {
        ArgumentNullException.ThrowIfNull(text);
        var trimmed = text.Trim();
        if (trimmed.EndsWith("/s", StringComparison.Ordinal))
        {
            trimmed = trimmed[..^2];
        }

        var scale = trimmed.EndsWith('k') || trimmed.EndsWith('K') ? 1e3 : trimmed.EndsWith('M') ? 1e6 : 1;
        if (scale > 1)
        {
            trimmed = trimmed[..^1];
        }

        perSecond = 0;
        if (!double.TryParse(trimmed, NumberStyles.Float, CultureInfo.InvariantCulture, out var number) || !double.IsFinite(number) || number <= 0)
        {
            return false;
        }

        perSecond = number * scale;
        return true;
    }

    /// <summary>A rate option that may be left out (null), up to <paramref name="maximum"/> per second.</summary>
    public static Option<double?> Optional(string name, string description, double maximum = double.MaxValue) => new(name)
    {
        Description = description,
        CustomParser = result => Parse(result, maximum),
        HelpName = "rate",
    };

    /// <summary>A rate option with a default, up to <paramref name="maximum"/> per second.</summary>
    public static Option<double> Option(string name, string description, double defaultValue, double maximum = double.MaxValue) => new(name)
    {
        Description = description,
        DefaultValueFactory = _ => defaultValue,
        CustomParser = result => Parse(result, maximum),
        HelpName = "rate",
    };

    /// <summary>The System.CommandLine parser: an error naming the option when the text is not a rate in range.</summary>
    public static double Parse(ArgumentResult result, double maximum)
    {
        ArgumentNullException.ThrowIfNull(result);
        var text = result.Tokens.Count > 0 ? result.Tokens[0].Value : string.Empty;
        if (!TryParse(text, out var rate))
        {
            result.AddError($"{OptionName.Of(result)}: '{text}' is not a rate above 0 ({Syntax}).");
        }
        else if (rate > maximum)
        {
            result.AddError(string.Create(CultureInfo.InvariantCulture, $"{OptionName.Of(result)}: '{text}' is above the maximum, {maximum:N0} per second."));
        }

        return rate;
    }
}
