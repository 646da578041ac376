using System.CommandLine;
using System.CommandLine.Parsing;
using System.Globalization;

namespace SensorPipeline.CommandLine;

/// <summary>
/// Counts and plain numbers within a range: <c>20000</c>, <c>500_000</c> (underscores between digits), <c>1e6</c>; a
/// whole-number option refuses <c>2.5</c>. A bad or out-of-range value is an error naming the option (or argument) and
/// its range.
/// </summary>
public static class Numbers
{
    /// <summary>Parses a finite number, underscores between digits allowed.</summary>
    public static bool TryParse(string text, out double value)
    {
        ArgumentNullException.ThrowIfNull(text);
        return double.TryParse(text.Trim().Replace("_", "", StringComparison.Ordinal), NumberStyles.Float, CultureInfo.InvariantCulture, out value)
            && double.IsFinite(value);
    }

    /// <summary>A whole-number option from <paramref name="minimum"/> to <paramref name="maximum"/>, with a default.</summary>
    public static Option<int> Whole(string name, string description, int defaultValue, int minimum, int maximum) => new(name)
    {
        Description = Described(description, minimum, maximum),
        DefaultValueFactory = _ => defaultValue,
        CustomParser = result => (int)Parse(result, minimum, maximum, whole: true),
        HelpName = "count",
    };

    /// <summary>A whole-number option past <see cref="int"/>'s range, with a default.</summary>
    public static Option<long> WholeLong(string name, string description, long defaultValue, long minimum, long maximum) => new(name)
    {
        Description = Described(description, minimum, maximum),
        DefaultValueFactory = _ => defaultValue,
        CustomParser = result => (long)Parse(result, minimum, maximum, whole: true),
        HelpName = "count",
    };

    /// <summary>A whole-number option that may be left out (null).</summary>
    public static Option<int?> OptionalWhole(string name, string description, int minimum, int maximum) => new(name)
    {
        Description = Described(description, minimum, maximum),
        CustomParser = result => (int)Parse(result, minimum, maximum, whole: true),
        HelpName = "count",
    };

    /// <summary>A number option that may be left out (null), from <paramref name="minimum"/> to <paramref name="maximum"/>.</summary>
    public static Option<double?> Optional(string name, string description, double minimum, double maximum) => new(name)
    {
        Description = Described(description, minimum, maximum),
        CustomParser = result => Parse(result, minimum, maximum, whole: false),
        HelpName = "number",
    };

    /// <summary>An optional positional whole number (a command's <c>[readings]</c>), with a default.</summary>
    public static Argument<int> WholeArgument(string name, string description, int defaultValue, int minimum, int maximum) => new(name)
    {
        Description = Described(description, minimum, maximum),
        Arity = ArgumentArity.ZeroOrOne,
        DefaultValueFactory = _ => defaultValue,
        CustomParser = result => (int)Parse(result, minimum, maximum, whole: true),
    };

    /// <summary>A comma-separated list of whole numbers (<c>1,2,4</c>), each in range, with a default.</summary>
    public static Option<IReadOnlyList<int>> WholeList(string name, string description, IReadOnlyList<int> defaultValue, int minimum, int maximum) => new(name)
    {
        Description = Described(description + " Comma-separated", minimum, maximum),
        DefaultValueFactory = _ => defaultValue,
        CustomParser = result =>
        {
            var text = result.Tokens.Count > 0 ? result.Tokens[0].Value : string.Empty;
            var values = new List<int>();
            foreach (var item in text.Split(',', StringSplitOptions.TrimEntries))
            {
                if (!TryParse(item, out var value) || value != Math.Floor(value) || value < minimum || value > maximum)
                {
                    result.AddError(string.Create(CultureInfo.InvariantCulture, $"{OptionName.Of(result)}: '{item}' in '{text}' is not a whole number from {minimum:N0} to {maximum:N0}."));
                    return defaultValue;
                }

                values.Add((int)value);
            }

            return values;
        },
        HelpName = "list",
    };

    /// <summary>The System.CommandLine parser: an error naming the option when the text is not a number in range.</summary>
    public static double Parse(ArgumentResult result, double minimum, double maximum, bool whole)
    {
        ArgumentNullException.ThrowIfNull(result);
        var text = result.Tokens.Count > 0 ? result.Tokens[0].Value : string.Empty;
        if (!TryParse(text, out var value) || (whole && value != Math.Floor(value)) || value < minimum || value > maximum)
        {
            result.AddError(string.Create(CultureInfo.InvariantCulture,
                $"{OptionName.Of(result)}: '{text}' is not a {(whole ? "whole number" : "number")} from {minimum:#,0.###} to {maximum:#,0.###}."));
            return minimum;
        }

        return value;
    }

    private static string Described(string description, double minimum, double maximum) =>
        string.Create(CultureInfo.InvariantCulture, $"{description} ({minimum:#,0.###} to {maximum:#,0.###}).");
}
