using System.Text.Json;

namespace SensorPipeline.Plan.Output;

/// <summary>
/// Writes a plan's values into azd's current environment, <c>.azure/&lt;env&gt;/.env</c>, so <c>azd up</c> deploys that
/// profile. The environment is AZURE_ENV_NAME, else <c>.azure/config.json</c>'s defaultEnvironment. Lines of other
/// keys are kept; a previous plan's keys and comments are replaced.
/// </summary>
internal static class AzdEnvironment
{
    public static string ResolveEnvironmentName(string root, string? azureEnvName)
    {
        if (!string.IsNullOrWhiteSpace(azureEnvName))
        {
            return azureEnvName;
        }

        var config = Path.Combine(root, ".azure", "config.json");
        if (File.Exists(config))
        {
            using var doc = JsonDocument.Parse(File.ReadAllText(config));
            if (doc.RootElement.TryGetProperty("defaultEnvironment", out var name) && name.ValueKind == JsonValueKind.String && !string.IsNullOrWhiteSpace(name.GetString()))
            {
                return name.GetString()!;
            }
        }

        throw new PlanDataException($"--azd: no azd environment. Set AZURE_ENV_NAME, or create one with `azd env new <name>` (it sets defaultEnvironment in {config}).");
    }

    /// <summary>Writes the block into <paramref name="file"/> (created with its folder if missing); returns the file.</summary>
    public static string Write(string file, IReadOnlyList<string> block)
    {
        Directory.CreateDirectory(Path.GetDirectoryName(Path.GetFullPath(file))!);
        var keys = ProfileSettings.Keys.ToHashSet(StringComparer.Ordinal);
        var kept = File.Exists(file)
            ? File.ReadAllLines(file).Where(line => !IsPlanLine(line, keys)).ToList()
            : [];
        kept.AddRange(block);
        var temp = file + ".tmp";
        File.WriteAllLines(temp, kept);
        File.Move(temp, file, overwrite: true);
        return file;
    }

    private static bool IsPlanLine(string line, HashSet<string> keys)
    {
        var trimmed = line.TrimStart();
        if (trimmed.StartsWith(ProfileSettings.CommentPrefix, StringComparison.Ordinal) || trimmed.StartsWith("# demand ", StringComparison.Ordinal))
        {
            return true;
        }

        var eq = trimmed.IndexOf('=', StringComparison.Ordinal);
        return eq > 0 && keys.Contains(trimmed[..eq].Trim());
    }
}
