using Azure.Messaging.EventHubs;
using SensorPipeline.Core.Readings;

namespace SensorPipeline.Functions.Options;

/// <summary>Every check for <see cref="ForwardingOptions"/>, run once at start-up; messages name the app setting.</summary>
internal sealed class ForwardingOptionsValidator : SettingsValidator<ForwardingOptions>
{
    protected override void Check(ForwardingOptions options, List<string> failures)
    {
        var hasConnection = !string.IsNullOrWhiteSpace(options.ConnectionString);
        var hasNamespace = !string.IsNullOrWhiteSpace(options.FullyQualifiedNamespace);
        if (hasConnection == hasNamespace)
        {
            failures.Add(hasConnection
                ? "EventHubConnection and EventHubConnection__fullyQualifiedNamespace are both set: set the connection string locally, the namespace (with the managed identity) in Azure, not both."
                : "EventHubConnection (a connection string, locally) or EventHubConnection__fullyQualifiedNamespace (Azure, with the managed identity) is required: the splitter sends its envelopes there.");
        }
        else if (hasConnection)
        {
            CheckConnectionString(failures, options.ConnectionString!);
        }
        else if (Uri.CheckHostName(options.FullyQualifiedNamespace) != UriHostNameType.Dns)
        {
            failures.Add($"EventHubConnection__fullyQualifiedNamespace must be a host name such as <namespace>.servicebus.windows.net, found '{options.FullyQualifiedNamespace}'.");
        }

        foreach (var kind in SensorKindCatalog.Default.All)
        {
            CheckHubName(failures, kind.HubSetting, options.HubNames.GetValueOrDefault(kind.Name));
        }

        Within(failures, "Forwarding__MaxConcurrentSends", options.MaxConcurrentSends, 1, 64);
        Within(failures, "Forwarding__MaxRetries", options.MaxRetries, 0, 10);
        Within(failures, "Forwarding__TryTimeout", options.TryTimeout, TimeSpan.FromSeconds(1), TimeSpan.FromMinutes(5));
    }

    private static void CheckConnectionString(List<string> failures, string connectionString)
    {
        try
        {
            var properties = EventHubsConnectionStringProperties.Parse(connectionString);
            var signed = !string.IsNullOrEmpty(properties.SharedAccessSignature)
                || (!string.IsNullOrEmpty(properties.SharedAccessKeyName) && !string.IsNullOrEmpty(properties.SharedAccessKey));
            if (string.IsNullOrEmpty(properties.FullyQualifiedNamespace) || !signed)
            {
                failures.Add("EventHubConnection is not an Event Hubs connection string: it needs Endpoint=sb://<host> and SharedAccessKeyName with SharedAccessKey (or a SharedAccessSignature).");
            }
            else if (!string.IsNullOrEmpty(properties.EventHubName))
            {
                failures.Add("EventHubConnection must name the namespace only (no EntityPath): the splitter sends to one hub per kind, " +
                    string.Join(", ", SensorKindCatalog.Default.All.Select(static k => k.HubSetting)) + ".");
            }
        }
        catch (FormatException e)
        {
            failures.Add("EventHubConnection is not an Event Hubs connection string: " + e.Message);
        }
    }

    private static void CheckHubName(List<string> failures, string setting, string? value)
    {
        // Event hub names: 1-256 letters, digits, '.', '-', '_', starting and ending with a letter or digit.
        if (string.IsNullOrEmpty(value) || value.Length > 256 || !char.IsAsciiLetterOrDigit(value[0]) || !char.IsAsciiLetterOrDigit(value[^1])
            || value.Any(c => !char.IsAsciiLetterOrDigit(c) && c is not ('.' or '-' or '_')))
        {
            failures.Add($"{setting} must be an event hub name (1-256 letters, digits, '.', '-', '_'), found '{value}'.");
        }
    }
}
