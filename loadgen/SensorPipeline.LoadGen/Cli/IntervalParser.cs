using System.CommandLine.Parsing;
using System.Globalization;

namespace SensorPipeline.LoadGen.Cli;

/// <summary>
/// A time interval on the command line in ISO 8601's start/end form with UTC offsets:
/// <c>2026-11-24T05:39:41Z/2026-11-24T05:41:13Z</c>.
/// </summary>
internal static class IntervalParser
{
    public static bool TryParse(string text, out (DateTimeOffset From, DateTimeOffset To) value)
    {
        ArgumentNullException.ThrowIfNull(text);
        value = default;
        var parts = text.Trim().Split('/');
        if (parts.Length != 2
            || !DateTimeOffset.TryParse(parts[0], CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal, out var from)
            || !DateTimeOffset.TryParse(parts[1], CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal, out var to)
            || to < from)
        {
            return false;
        }

        value = (from, to);
        return true;
    }

    /// <summary>Every token of a repeatable option; a malformed one is a parse error naming it.</summary>
    public static List<(DateTimeOffset From, DateTimeOffset To)> ParseAll(ArgumentResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        List<(DateTimeOffset, DateTimeOffset)> intervals = [];
        foreach (var token in result.Tokens)
        {
            if (TryParse(token.Value, out var interval))
            {
                intervals.Add(interval);
            }
            else
            {
                result.AddError($"'{token.Value}' is not an interval: use START/END, two ISO 8601 times with END not before START (e.g. 2026-11-24T05:39:41Z/2026-11-24T05:41:13Z).");
            }
        }

        return intervals;
    }
}
