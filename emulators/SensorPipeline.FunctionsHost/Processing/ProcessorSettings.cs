using Azure.Messaging.EventHubs;
using Azure.Messaging.EventHubs.Consumer;
using Azure.Messaging.EventHubs.Primitives;
using Azure.Messaging.EventHubs.Processor;
using SensorPipeline.FunctionsHost.Config;

namespace SensorPipeline.FunctionsHost.Processing;

/// <summary>What one function's <see cref="FunctionProcessor"/> is built from: the blob store, the Event Hubs
/// namespace of its trigger's <c>connection</c> setting, and the processor options the extension derives from
/// host.json (EventHubOptions: prefetchCount, initialOffsetOptions, the load-balancing intervals).</summary>
internal sealed record ProcessorSettings(WebJobsBlobCheckpointStore Store, HubConnection Connection, EventProcessorOptions Options, BlobCheckpoints Checkpoints)
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
        return new ProcessorSettings(store, HubConnection.Resolve(app, function.Trigger.Connection, endpoint), processorOptions, checkpoints);
    }
}
