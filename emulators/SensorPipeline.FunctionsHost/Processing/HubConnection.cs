using System.Globalization;
using Azure.Core;
using Azure.Identity;
using Azure.Messaging.EventHubs;
using Azure.Messaging.EventHubs.Primitives;
using Azure.Messaging.EventHubs.Producer;
using SensorPipeline.FunctionsHost.Config;

namespace SensorPipeline.FunctionsHost.Processing;

/// <summary>An Event Hubs namespace as a binding's <c>connection</c> setting names it, read as the Functions host reads
/// it: the setting itself is a connection string (SAS), or <c>{setting}__fullyQualifiedNamespace</c> names the
/// namespace and a Microsoft Entra credential (<see cref="DefaultAzureCredential"/>: a developer's Azure CLI or Visual
/// Studio sign-in locally, a managed identity in Azure) signs in.</summary>
internal sealed record HubConnection(string FullyQualifiedNamespace, string? ConnectionString, TokenCredential? Credential)
{
    /// <summary>Resolves <paramref name="setting"/> from the app's values and the environment; with
    /// <paramref name="endpoint"/> (devhost's own) a connection string's host and port are replaced by it, so a fixed
    /// port in local.settings.json never points the host elsewhere. Neither form set stops start-up naming both.</summary>
    public static HubConnection Resolve(FunctionApp app, string setting, Uri? endpoint)
    {
        var resolver = new SettingResolver(app.Values);
        var settingsFile = Path.Combine(app.AppRoot, "local.settings.json");
        var value = resolver.Get(setting);
        if (string.IsNullOrWhiteSpace(value))
        {
            if (resolver.Get(setting + "__fullyQualifiedNamespace") is { Length: > 0 } fullyQualifiedNamespace && endpoint is null)
            {
                return new HubConnection(fullyQualifiedNamespace, null, new DefaultAzureCredential());
            }

            throw new FunctionAppConfigurationException(settingsFile, $"Values.{setting}",
                $"the binding's connection is not set: {setting} (a connection string) or {setting}__fullyQualifiedNamespace (a namespace, Microsoft Entra sign-in) in local.settings.json Values or the environment");
        }

        EventHubsConnectionStringProperties properties;
        try
        {
            properties = EventHubsConnectionStringProperties.Parse(value);
        }
        catch (FormatException e)
        {
            throw new FunctionAppConfigurationException(settingsFile, $"Values.{setting}", "not an Event Hubs connection string: " + e.Message, e);
        }

        if (endpoint is null)
        {
            return new HubConnection(properties.FullyQualifiedNamespace, value, null);
        }

        return new HubConnection(endpoint.Host, string.Create(CultureInfo.InvariantCulture,
            $"Endpoint=sb://{endpoint.Host}:{endpoint.Port};SharedAccessKeyName={properties.SharedAccessKeyName};SharedAccessKey={properties.SharedAccessKey};UseDevelopmentEmulator=true"), null);
    }

    public EventHubProducerClient CreateProducer(string hub) =>
        ConnectionString is not null ? new EventHubProducerClient(ConnectionString, hub) : new EventHubProducerClient(FullyQualifiedNamespace, hub, Credential!);

    public PartitionReceiver CreateReceiver(string consumerGroup, string partitionId, Azure.Messaging.EventHubs.Consumer.EventPosition position, string hub) =>
        ConnectionString is not null
            ? new PartitionReceiver(consumerGroup, partitionId, position, ConnectionString, hub)
            : new PartitionReceiver(consumerGroup, partitionId, position, FullyQualifiedNamespace, hub, Credential!);
}
