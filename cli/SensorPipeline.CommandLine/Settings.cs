using System.CommandLine;
using System.CommandLine.Parsing;

namespace SensorPipeline.CommandLine;

/// <summary>
/// <c>--set Key=Value</c>, repeatable: any configuration key, written with <c>:</c> (<c>--set EventHubs:Durability=None</c>)
/// or with <c>__</c> as the same setting's environment variable is (<c>--set EventHubs__Durability=None</c>), so every
/// settings table's name works on the command line as it is. Keys compare without case, as configuration does; a later
/// one wins.
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

            // The environment-variable provider turns '__' into configuration's ':'; an in-memory key is taken as it is.
            settings[token.Value[..eq].Replace("__", ":", StringComparison.Ordinal)] = token.Value[(eq + 1)..];
        }

        return settings;
    }
}
