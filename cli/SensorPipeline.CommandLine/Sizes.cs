using System.CommandLine;
using System.CommandLine.Parsing;
using System.Globalization;

namespace SensorPipeline.CommandLine;

/// <summary>
/// Sizes in bytes: a whole number (<c>100</c>), or with a unit, binary (<c>64KiB</c>, <c>1MiB</c>, <c>2GiB</c>) or
/// decimal (<c>64KB</c>, <c>1MB</c>, <c>2GB</c>); a trailing <c>B</c> alone is bytes.
/// </summary>
public static class Sizes
{
    /// <summary>How the syntax reads in help and errors.</summary>
    public const string Syntax = "100, 100B, 64KiB, 1MiB or 1MB";

    private static readonly (string Suffix, long Bytes)[] Units =
        [("KiB", 1L << 10), ("MiB", 1L << 20), ("GiB", 1L << 30), ("KB", 1000), ("MB", 1_000_000), ("GB", 1_000_000_000), ("B", 1)];

    /// <summary>Parses a size of zero or more bytes.</summary>
    public static bool TryParse(string text, out long bytes)
    {
        ArgumentNullException.ThrowIfNull(text);
        var trimmed = text.Trim();
        var scale = 1L;
        foreach (var (suffix, unit) in Units)
        {
            if (trimmed.EndsWith(suffix, StringComparison.OrdinalIgnoreCase))
            {
                (trimmed, scale) = (trimmed[..^suffix.Length], unit);
                break;
            }
        }

        bytes = 0;
        if (!double.TryParse(trimmed, NumberStyles.Float, CultureInfo.InvariantCulture, out var number) || !double.IsFinite(number) || number < 0
            || number * scale > long.MaxValue || number * scale != Math.Floor(number * scale))
        {
            return false;
        }

        bytes = (long)(number * scale);
        return true;
    }

    /// <summary>A size option from <paramref name="minimum"/> to <paramref name="maximum"/> bytes, with a default.</summary>
    public static Option<long> Option(string name, string description, long defaultValue, long minimum = 0, long maximum = long.MaxValue) => new(name)
    {
        Description = description,
        DefaultValueFactory = _ => defaultValue,
        CustomParser = result => Parse(result, minimum, maximum),
        HelpName = "size",
    };

    /// <summary>The System.CommandLine parser: an error naming the option when the text is not a size in range.</summary>
    public static long Parse(ArgumentResult result, long minimum, long maximum)
    {
        ArgumentNullException.ThrowIfNull(result);
        var text = result.Tokens.Count > 0 ? result.Tokens[0].Value : string.Empty;
        if (!TryParse(text, out var bytes))
        {
            result.AddError($"{OptionName.Of(result)}: '{text}' is not a size ({Syntax}).");
        }
        else if (bytes < minimum || bytes > maximum)
        {
            result.AddError(string.Create(CultureInfo.InvariantCulture, $"{OptionName.Of(result)}: '{text}' must be from {minimum:N0} to {maximum:N0} bytes."));
        }

        return bytes;
    }
}
