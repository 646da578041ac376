using System.Text.Json;

namespace SensorPipeline.FunctionsHost.Config;

/// <summary>Reads one function.json: the <c>eventHubTrigger</c> (cardinality many), its <c>eventHub</c> outputs
/// and an optional <c>retry</c>. %NAME% tokens in hub, consumer group and connection are resolved here.</summary>
internal static class FunctionJsonReader
{
    /// <summary>Returns null when the function is not Event Hubs-triggered or is disabled (devhost has nothing to run).</summary>
    public static FunctionDefinition? Read(JsonFile file, string name, SettingResolver settings, RetryPolicy? hostRetry)
    {
        var root = file.Root;
        if (JsonFile.TryGet(root, "disabled", out var disabled) && disabled.ValueKind == JsonValueKind.True)
        {
            return null;
        }

        if (string.Equals(settings.Get($"AzureWebJobs.{name}.Disabled"), "true", StringComparison.OrdinalIgnoreCase))
        {
            return null;
        }

        if (!JsonFile.TryGet(root, "bindings", out var bindings) || bindings.ValueKind != JsonValueKind.Array)
        {
            throw file.Error("bindings", "is required: an array of bindings");
        }

        var (trigger, otherTrigger, outputs) = ReadBindings(file, bindings, settings);
        if (trigger is null)
        {
            return otherTrigger ? null : throw file.Error("bindings", "has no trigger binding");
        }

        var retry = file.Object(root, "retry", "retry") is { } retryElement
            ? HostJsonReader.ReadRetry(file, retryElement, "retry")
            : hostRetry;
        var fqns = FullyQualifiedNamespace(file, trigger.Connection, settings);
        return new FunctionDefinition(name, file.Path, trigger, outputs, retry, fqns);
    }

    /// <summary>OtherTrigger: a binding of another trigger type was seen, so a function without an Event Hubs trigger is
    /// skipped rather than refused.</summary>
    private static (TriggerBinding? Trigger, bool OtherTrigger, List<OutputBinding> Outputs) ReadBindings(JsonFile file, JsonElement bindings, SettingResolver settings)
    {
        TriggerBinding? trigger = null;
        var otherTrigger = false;
        var outputs = new List<OutputBinding>();
        var index = 0;
        foreach (var binding in bindings.EnumerateArray())
        {
            var field = $"bindings[{index++}]";
            if (binding.ValueKind != JsonValueKind.Object)
            {
                throw file.Error(field, $"expected an object, found {binding.ValueKind}");
            }

            var type = file.String(binding, "type", field + ".type") ?? throw file.Error(field + ".type", "is required");
            var bindingName = file.String(binding, "name", field + ".name") ?? throw file.Error(field + ".name", "is required");
            var direction = file.String(binding, "direction", field + ".direction") ?? "in";
            if (type.EndsWith("Trigger", StringComparison.OrdinalIgnoreCase) && !type.Equals("eventHubTrigger", StringComparison.OrdinalIgnoreCase))
            {
                otherTrigger = true;
                continue;
            }

            if (type.Equals("eventHubTrigger", StringComparison.OrdinalIgnoreCase))
            {
                trigger = ReadTrigger(file, binding, field, bindingName, settings);
            }
            else if (type.Equals("eventHub", StringComparison.OrdinalIgnoreCase) && direction.Equals("out", StringComparison.OrdinalIgnoreCase))
            {
                outputs.Add(ReadOutput(file, binding, field, bindingName, settings));
            }
            else
            {
                throw file.Error(field + ".type", $"binding type '{type}' (direction {direction}) is not served by devhost: only eventHubTrigger and eventHub outputs are");
            }
        }

        return (trigger, otherTrigger, outputs);
    }

    private static TriggerBinding ReadTrigger(JsonFile file, JsonElement binding, string field, string name, SettingResolver settings)
    {
        var hub = HubName(file, binding, field, settings);
        var consumerGroupText = file.String(binding, "consumerGroup", field + ".consumerGroup") ?? "$Default";
        var consumerGroup = settings.Resolve(consumerGroupText, file, field + ".consumerGroup");
        var connection = Connection(file, binding, field, settings);
        var cardinality = file.String(binding, "cardinality", field + ".cardinality") ?? "one";
        if (!cardinality.Equals("many", StringComparison.OrdinalIgnoreCase))
        {
            throw file.Error(field + ".cardinality", $"devhost dispatches batches only: set \"cardinality\": \"many\" (found \"{cardinality}\")");
        }

        var dataTypeText = file.String(binding, "dataType", field + ".dataType");
        var dataType = dataTypeText switch
        {
            null => TriggerDataType.Unspecified,
            _ when dataTypeText.Equals("binary", StringComparison.OrdinalIgnoreCase) => TriggerDataType.Binary,
            _ when dataTypeText.Equals("string", StringComparison.OrdinalIgnoreCase) => TriggerDataType.Text,
            _ => throw file.Error(field + ".dataType", $"must be binary or string, found \"{dataTypeText}\""),
        };
        return new TriggerBinding(name, hub, consumerGroup, connection, dataType, SettingResolver.WholeExpression(consumerGroupText));
    }

    private static OutputBinding ReadOutput(JsonFile file, JsonElement binding, string field, string name, SettingResolver settings)
    {
        var hub = HubName(file, binding, field, settings);
        var connection = Connection(file, binding, field, settings);
        var dataType = file.String(binding, "dataType", field + ".dataType");
        return new OutputBinding(name, hub, connection, string.Equals(dataType, "binary", StringComparison.OrdinalIgnoreCase));
    }

    private static string HubName(JsonFile file, JsonElement binding, string field, SettingResolver settings)
    {
        // "path" is the extension's older name for eventHubName.
        var raw = file.String(binding, "eventHubName", field + ".eventHubName")
            ?? file.String(binding, "path", field + ".path")
            ?? throw file.Error(field + ".eventHubName", "is required");
        return settings.Resolve(raw, file, field + ".eventHubName");
    }

    private static string Connection(JsonFile file, JsonElement binding, string field, SettingResolver settings)
    {
        var raw = file.String(binding, "connection", field + ".connection") ?? throw file.Error(field + ".connection", "is required");
        return settings.Resolve(raw, file, field + ".connection");
    }

    private static string FullyQualifiedNamespace(JsonFile file, string connection, SettingResolver settings)
    {
        // The extension resolves the connection setting itself: a connection string, or <name>__fullyQualifiedNamespace
        // for identity-based connections. Neither set stops the host, so it stops devhost too.
        if (settings.Get(connection) is { Length: > 0 } connectionString)
        {
            foreach (var part in connectionString.Split(';', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
            {
                if (part.StartsWith("Endpoint=", StringComparison.OrdinalIgnoreCase)
                    && Uri.TryCreate(part["Endpoint=".Length..], UriKind.Absolute, out var endpoint))
                {
                    return endpoint.Host;
                }
            }

            throw new FunctionAppConfigurationException(file.Path, "connection", $"setting '{connection}' is not an Event Hubs connection string (no Endpoint=sb://…)");
        }

        return settings.Get(connection + "__fullyQualifiedNamespace")
            ?? throw new FunctionAppConfigurationException(file.Path, "connection", $"setting '{connection}' (or '{connection}__fullyQualifiedNamespace') is not set in local.settings.json Values or the environment");
    }
}
