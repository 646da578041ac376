using System.Text;

namespace SensorPipeline.FunctionsHost.Config;

/// <summary>Resolves <c>%NAME%</c> tokens in binding fields as the WebJobs name resolver does (anywhere in the
/// string): from local.settings.json <c>Values</c> first, then the process environment.</summary>
internal sealed class SettingResolver(IReadOnlyDictionary<string, string> values)
{
    public string? Get(string name)
    {
        if (values.TryGetValue(name, out string? value))
        {
            return value;
        }

        return Environment.GetEnvironmentVariable(name);
    }

    /// <summary>Replaces every %NAME% in <paramref name="text"/>; an unset NAME stops start-up naming file, field and setting.</summary>
    public string Resolve(string text, JsonFile file, string field)
    {
        int start = text.IndexOf('%', StringComparison.Ordinal);
        if (start < 0)
        {
            return text;
        }

        var builder = new StringBuilder(text.Length);
        int position = 0;
        while (start >= 0)
        {
            int end = text.IndexOf('%', start + 1);
            if (end < 0)
            {
                throw file.Error(field, $"unbalanced '%' in \"{text}\"");
            }

            string name = text[(start + 1)..end];
            string value = Get(name) ?? throw file.Error(field, $"setting '{name}' (from \"{text}\") is not set in local.settings.json Values or the environment");
            builder.Append(text, position, start - position).Append(value);
            position = end + 1;
            start = text.IndexOf('%', position);
        }

        return builder.Append(text, position, text.Length - position).ToString();
    }
}
