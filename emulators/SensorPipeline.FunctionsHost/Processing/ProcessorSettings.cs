using System.Globalization;
using Azure.Messaging.EventHubs;
using Azure.Messaging.EventHubs.Consumer;
using Azure.Messaging.EventHubs.Primitives;
using Azure.Messaging.EventHubs.Processor;
using SensorPipeline.FunctionsHost.Config;

namespace SensorPipeline.FunctionsHost.Processing;

/// <summary>What one function's <see cref="FunctionProcessor"/> is built from: the blob store, the Event Hubs
/// connection string of its trigger's <c>connection</c> setting, and the processor options the extension derives from
/// host.json (EventHubOptions: prefetchCount, initialOffsetOptions, the load-balancing intervals).</summary>
internal sealed record ProcessorSettings(WebJobsBlobCheckpointStore Store, string ConnectionString, EventProcessorOptions Options, BlobCheckpoints Checkpoints)
{
    /// <summary>The app setting the Functions host keeps its storage connection in.</summary>
    public const string StorageSetting = "AzureWebJobsStorage";

    public static ProcessorSettings Create(FunctionApp app, FunctionDefinition function, FunctionsHostOptions options, Uri? endpoint, WebJobsBlobCheckpointStore store, BlobCheckpoints checkpoints)
    {
        var eventHubs = app.Host.EventHubs;
        var processorOptions = new EventProcessorOptions
        {
            Identifier = options.InstanceId.Length > 0 ? options.InstanceId : "devhost",
            LoadBalancingStrategy = options.LoadBalancingStrategy,
            LoadBalancingUpdateInterval = eventHubs.LoadBalancingUpdateInterval,
            PartitionOwnershipExpirationInterval = eventHubs.PartitionOwnershipExpirationInterval,
            PrefetchCount = eventHubs.PrefetchCount,
            TrackLastEnqueuedEventProperties = false,
            // The extension's processor waits 1 minute for events; with minEventBatchSize > 1 this host shortens it to
            // maxWaitTime, so the processor's empty batch at the end of the wait dispatches what is held.
            MaximumWaitTime = eventHubs.MinEventBatchSize > 1 ? TimeSpan.FromTicks(Math.Max(eventHubs.MaxWaitTime.Ticks, TimeSpan.TicksPerMillisecond * 10)) : TimeSpan.FromMinutes(1),
            DefaultStartingPosition = eventHubs.InitialOffsetType switch
            {
                InitialOffsetType.FromEnd => EventPosition.Latest,
                InitialOffsetType.FromEnqueuedTime => EventPosition.FromEnqueuedTime(eventHubs.InitialOffsetEnqueuedTimeUtc!.Value),
                _ => EventPosition.Earliest,
            },
        };
        return new ProcessorSettings(store, ResolveConnectionString(app, function.Trigger.Connection, endpoint), processorOptions, checkpoints);
    }

    /// <summary>A binding's <c>connection</c> setting; with <paramref name="endpoint"/> (devhost's own), its host and
    /// port replace the setting's, so a fixed port in local.settings.json never points the host elsewhere.</summary>
    public static string ResolveConnectionString(FunctionApp app, string connectionSetting, Uri? endpoint)
    {
        var value = new SettingResolver(app.Values).Get(connectionSetting);
        var settingsFile = Path.Combine(app.AppRoot, "local.settings.json");
        if (string.IsNullOrWhiteSpace(value))
        {
            throw new FunctionAppConfigurationException(settingsFile, $"Values.{connectionSetting}", "the trigger's connection setting is not set in local.settings.json Values or the environment");
        }

        if (endpoint is null)
        {
            return value;
        }

        EventHubsConnectionStringProperties properties;
        try
        {
            properties = EventHubsConnectionStringProperties.Parse(value);
        }
        catch (FormatException e)
        {
            throw new FunctionAppConfigurationException(settingsFile, $"Values.{connectionSetting}", "not an Event Hubs connection string: " + e.Message, e);
        }

        return string.Create(CultureInfo.InvariantCulture,
            $"Endpoint=sb://{endpoint.Host}:{endpoint.Port};SharedAccessKeyName={properties.SharedAccessKeyName};SharedAccessKey={properties.SharedAccessKey};UseDevelopmentEmulator=true");
    }
}
