using System.Text.Json;
using SensorPipeline.FunctionsHost.Hubs;

namespace SensorPipeline.FunctionsHost.Config;

/// <summary>Loads a function app from the files Azure reads: root host.json, every
/// <c>&lt;app-root&gt;/&lt;Name&gt;/function.json</c> and <c>&lt;app-root&gt;/functions/&lt;Name&gt;/function.json</c>,
/// and local.settings.json. Any problem stops start-up with the file and field named.</summary>
public static class FunctionAppLoader
{
    public static async Task<FunctionApp> LoadAsync(string appRoot, CancellationToken cancellationToken)
    {
        appRoot = Path.GetFullPath(appRoot);
        var hostPath = Path.Combine(appRoot, "host.json");
        if (!File.Exists(hostPath))
        {
            throw new FunctionAppConfigurationException(hostPath, "$", "not found: --app-root must name a function app folder holding host.json");
        }

        var values = await ReadLocalSettingsAsync(Path.Combine(appRoot, "local.settings.json"), cancellationToken);
        var settings = new SettingResolver(values);
        var hostFile = await JsonFile.LoadAsync(hostPath, cancellationToken);
        var host = HostJsonReader.Read(hostFile, appRoot);

        var functions = new List<FunctionDefinition>();
        var seen = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);
        foreach (var path in FunctionJsonPaths(appRoot))
        {
            var name = Path.GetFileName(Path.GetDirectoryName(path)!);
            if (seen.TryGetValue(name, out var other))
            {
                throw new FunctionAppConfigurationException(path, "$", $"function '{name}' is also defined by {other}");
            }

            seen[name] = path;
            var file = await JsonFile.LoadAsync(path, cancellationToken);
            if (FunctionJsonReader.Read(file, name, settings, host.Retry) is { } function)
            {
                functions.Add(function);
            }
        }

        return new FunctionApp(appRoot, host, functions, values);
    }

    /// <summary>Checks every trigger and output against the namespace: an unknown hub or consumer group stops start-up,
    /// as the extension's listener would fail to start against a real namespace.</summary>
    public static void ValidateAgainst(FunctionApp app, IReadOnlyList<HubInfo> hubs)
    {
        foreach (var function in app.Functions)
        {
            var hub = Find(hubs, function.Trigger.EventHubName)
                ?? throw new FunctionAppConfigurationException(function.FilePath, $"bindings[{function.Trigger.Name}].eventHubName",
                    $"event hub '{function.Trigger.EventHubName}' does not exist in the namespace (hubs: {string.Join(", ", hubs.Select(h => h.Name))})");
            if (!hub.ConsumerGroups.Contains(function.Trigger.ConsumerGroup, StringComparer.OrdinalIgnoreCase))
            {
                throw new FunctionAppConfigurationException(function.FilePath, $"bindings[{function.Trigger.Name}].consumerGroup",
                    $"consumer group '{function.Trigger.ConsumerGroup}' does not exist on hub '{hub.Name}' (groups: {string.Join(", ", hub.ConsumerGroups)})");
            }

            foreach (var output in function.Outputs)
            {
                if (Find(hubs, output.EventHubName) is null)
                {
                    throw new FunctionAppConfigurationException(function.FilePath, $"bindings[{output.Name}].eventHubName",
                        $"event hub '{output.EventHubName}' does not exist in the namespace");
                }
            }
        }
    }

    internal static HubInfo? Find(IReadOnlyList<HubInfo> hubs, string name) =>
        hubs.FirstOrDefault(h => string.Equals(h.Name, name, StringComparison.OrdinalIgnoreCase));

    private static IEnumerable<string> FunctionJsonPaths(string appRoot)
    {
        foreach (var folder in new[] { appRoot, Path.Combine(appRoot, "functions") })
        {
            if (!Directory.Exists(folder))
            {
                continue;
            }

            foreach (var directory in Directory.EnumerateDirectories(folder).Order(StringComparer.Ordinal))
            {
                var path = Path.Combine(directory, "function.json");
                if (File.Exists(path))
                {
                    yield return path;
                }
            }
        }
    }

    private static async Task<IReadOnlyDictionary<string, string>> ReadLocalSettingsAsync(string path, CancellationToken cancellationToken)
    {
        var values = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);
        if (!File.Exists(path))
        {
            return values;
        }

        var file = await JsonFile.LoadAsync(path, cancellationToken);
        if (file.Object(file.Root, "Values", "Values") is not { } section)
        {
            return values;
        }

        foreach (var property in section.EnumerateObject())
        {
            values[property.Name] = property.Value.ValueKind switch
            {
                JsonValueKind.String => property.Value.GetString()!,
                JsonValueKind.Number or JsonValueKind.True or JsonValueKind.False => property.Value.GetRawText(),
                _ => throw file.Error($"Values.{property.Name}", $"expected a string, found {property.Value.ValueKind}"),
            };
        }

        return values;
    }
}
