using System.CommandLine;
using System.CommandLine.Parsing;

namespace SensorPipeline.CommandLine;

/// <summary>
/// <c>--set Key=Value</c>, repeatable: any configuration key (<c>--set EventHubs:Durability=None</c>), the same keys as
/// environment variables with <c>__</c>. Keys compare without case, as configuration does; a later one wins.
/// </summary>
public static class Settings
{
    /// <summary>The <c>--set</c> option.</summary>
    public static Option<IReadOnlyDictionary<string, string?>> Option(string description = "A configuration setting, Key=Value (repeatable; the same keys as environment variables with __).") =>
        new("--set")
        {
            Description = description,
            Arity = ArgumentArity.ZeroOrMore,
            AllowMultipleArgumentsPerToken = false,
            DefaultValueFactory = _ => new Dictionary<string, string?>(StringComparer.OrdinalIgnoreCase),
            CustomParser = Parse,
            HelpName = "Key=Value",
        };

    /// <summary>The System.CommandLine parser: each token split at its first '='; an error naming one that is not Key=Value.</summary>
    public static IReadOnlyDictionary<string, string?> Parse(ArgumentResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        var settings = new Dictionary<string, string?>(StringComparer.OrdinalIgnoreCase);
        foreach (var token in result.Tokens)
        {
            var eq = token.Value.IndexOf('=', StringComparison.Ordinal);
            if (eq <= 0)
            {
                result.AddError($"--set: '{token.Value}' is not Key=Value.");
                continue;
            }

            settings[token.Value[..eq]] = token.Value[(eq + 1)..];
        }

        return settings;
    }
}
