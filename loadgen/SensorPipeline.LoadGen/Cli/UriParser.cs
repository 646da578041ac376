using System.CommandLine.Parsing;

namespace SensorPipeline.LoadGen.Cli;

/// <summary>System.CommandLine has no built-in Uri conversion: absolute http(s) URLs, with a clear error otherwise.</summary>
internal static class UriParser
{
    public static Uri? Parse(ArgumentResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        var text = result.Tokens.Count > 0 ? result.Tokens[0].Value : "";
        if (Uri.TryCreate(text, UriKind.Absolute, out var uri) && uri.Scheme is "http" or "https")
        {
            return uri;
        }

        result.AddError($"'{text}' is not an absolute http:// or https:// URL.");
        return null;
    }
}
