namespace SensorPipeline.FunctionsHost.Config;

/// <summary>
/// Consumer groups of a run's own, for a local run against a namespace a deployed app also reads
/// (<c>./pipeline up --eventhubs …</c>). Each trigger names its consumer group by an app setting
/// (<c>%SplitterConsumerGroup%</c>), which the Functions host resolves here as Azure's does; the run sets each such
/// setting to <c>&lt;group&gt;-&lt;suffix&gt;</c>, so it never reads with the deployed app's groups and never takes its
/// partitions (same group: the SDK balances partitions between both apps; with separate Storage accounts each would
/// checkpoint on its own).
/// </summary>
public static class RunConsumerGroups
{
    /// <summary>Longest consumer group name Event Hubs accepts.</summary>
    public const int MaxNameLength = 50;

    /// <summary>The app settings that give every trigger of <paramref name="app"/> the group
    /// <c>&lt;its group&gt;-&lt;suffix&gt;</c>, by setting name.</summary>
    /// <exception cref="FunctionAppConfigurationException">Naming the function.json whose trigger names its consumer
    /// group literally (a run cannot replace it), or whose group with the suffix is too long.</exception>
    public static IReadOnlyDictionary<string, string> Settings(FunctionApp app, string suffix)
    {
        ArgumentNullException.ThrowIfNull(app);
        ArgumentException.ThrowIfNullOrWhiteSpace(suffix);
        var settings = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);
        foreach (var function in app.Functions)
        {
            var trigger = function.Trigger;
            var field = $"bindings[{trigger.Name}].consumerGroup";
            if (trigger.ConsumerGroupSetting is not { } setting)
            {
                throw new FunctionAppConfigurationException(function.FilePath, field,
                    $"names the consumer group '{trigger.ConsumerGroup}' literally; a run with consumer groups of its own replaces an app setting: write \"%{function.Name}ConsumerGroup%\" and set it in local.settings.json");
            }

            var group = trigger.ConsumerGroup + "-" + suffix;
            if (group.Length > MaxNameLength)
            {
                throw new FunctionAppConfigurationException(function.FilePath, field,
                    $"'{group}' (setting {setting} with the suffix '{suffix}') is longer than the {MaxNameLength} characters Event Hubs allows: give a shorter suffix");
            }

            settings[setting] = group;
        }

        return settings;
    }
}
