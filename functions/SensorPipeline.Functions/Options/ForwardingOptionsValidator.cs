using Azure.Messaging.EventHubs;
using Microsoft.Extensions.Options;

namespace SensorPipeline.Functions.Options;

/// <summary>Every check for <see cref="ForwardingOptions"/>, run once at start-up; messages name the app setting.</summary>
internal sealed class ForwardingOptionsValidator : IValidateOptions<ForwardingOptions>
{
    public ValidateOptionsResult Validate(string? name, ForwardingOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        var failures = new List<string>();
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

        CheckHubName(failures, "WeatherHubName", options.WeatherHubName);
        CheckHubName(failures, "SeismicHubName", options.SeismicHubName);
        if (options.MaxConcurrentSends is < 1 or > 64)
        {
            failures.Add($"Forwarding__MaxConcurrentSends must be from 1 to 64, found {options.MaxConcurrentSends}.");
        }

        if (options.MaxRetries is < 0 or > 10)
        {
            failures.Add($"Forwarding__MaxRetries must be from 0 to 10, found {options.MaxRetries}.");
        }

        if (options.TryTimeout < TimeSpan.FromSeconds(1) || options.TryTimeout > TimeSpan.FromMinutes(5))
        {
            failures.Add($"Forwarding__TryTimeout must be from 00:00:01 to 00:05:00, found {options.TryTimeout}.");
        }

        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
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
                failures.Add("EventHubConnection must name the namespace only (no EntityPath): the splitter sends to two hubs, WeatherHubName and SeismicHubName.");
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
