using System.Text;

namespace SensorPipeline.FunctionsHost.Config;

/// <summary>Resolves <c>%NAME%</c> tokens in binding fields as the WebJobs name resolver does (anywhere in the
/// string): from the process environment first, then local.settings.json <c>Values</c> — the precedence Core Tools
/// gives them ("Skipping 'X' from local.settings.json as it's already defined in current environment variables"),
/// which is also what lets a launcher point one run at other ports without editing the file.</summary>
internal sealed class SettingResolver(IReadOnlyDictionary<string, string> values)
{
    public string? Get(string name)
    {
        return Environment.GetEnvironmentVariable(name) ?? (values.TryGetValue(name, out var value) ? value : null);
    }

    /// <summary>NAME when <paramref name="text"/> is exactly one <c>%NAME%</c>; otherwise null.</summary>
    public static string? WholeExpression(string text) =>
        text is ['%', .. var name, '%'] && name.Length > 0 && !name.Contains('%', StringComparison.Ordinal) ? name : null;

    /// <summary>Replaces every %NAME% in <paramref name="text"/>; an unset NAME stops start-up naming file, field and setting.</summary>
    public string Resolve(string text, JsonFile file, string field)
    {
        var start = text.IndexOf('%', StringComparison.Ordinal);
        if (start < 0)
        {
            return text;
        }

        var builder = new StringBuilder(text.Length);
        var position = 0;
        while (start >= 0)
        {
            var end = text.IndexOf('%', start + 1);
            if (end < 0)
            {
                throw file.Error(field, $"unbalanced '%' in \"{text}\"");
            }

            var name = text[(start + 1)..end];
            var value = Get(name) ?? throw file.Error(field, $"setting '{name}' (from \"{text}\") is not set in local.settings.json Values or the environment");
            builder.Append(text, position, start - position).Append(value);
            position = end + 1;
            start = text.IndexOf('%', position);
        }

        return builder.Append(text, position, text.Length - position).ToString();
    }
}
