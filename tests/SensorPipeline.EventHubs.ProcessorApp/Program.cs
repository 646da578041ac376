using System.Globalization;
using System.Runtime.InteropServices;
using Azure.Messaging.EventHubs.Primitives;
using Azure.Messaging.EventHubs.Processor;
using Azure.Storage.Blobs;
using SensorPipeline.EventHubs.ProcessorApp;
using SensorPipeline.FunctionsHost.Processing;

// One event processor until SIGTERM (or kill -9). Settings come from the environment, each named in its error.
var settings = new Dictionary<string, string>();
foreach (var name in new[] { "EVENTHUBS_CONNECTION_STRING", "STORAGE_CONNECTION_STRING", "HUB", "CONSUMER_GROUP", "PROCESSOR_ID", "CHECKPOINT_EVERY", "OWNERSHIP_EXPIRY_MS", "BALANCING_INTERVAL_MS" })
{
    settings[name] = Environment.GetEnvironmentVariable(name) is { Length: > 0 } value
        ? value
        : throw new InvalidOperationException($"processor app: the environment variable {name} is not set");
}

int Positive(string name) => int.TryParse(settings[name], NumberStyles.None, CultureInfo.InvariantCulture, out var n) && n > 0
    ? n
    : throw new InvalidOperationException($"processor app: {name} must be a positive integer, not '{settings[name]}'");

// The Functions extension's checkpoint container.
var container = new BlobContainerClient(settings["STORAGE_CONNECTION_STRING"], WebJobsBlobCheckpointStore.ContainerName);
await container.CreateIfNotExistsAsync();
var options = new EventProcessorOptions
{
    Identifier = settings["PROCESSOR_ID"],
    LoadBalancingStrategy = LoadBalancingStrategy.Balanced,
    LoadBalancingUpdateInterval = TimeSpan.FromMilliseconds(Positive("BALANCING_INTERVAL_MS")),
    PartitionOwnershipExpirationInterval = TimeSpan.FromMilliseconds(Positive("OWNERSHIP_EXPIRY_MS")),
    MaximumWaitTime = TimeSpan.FromMilliseconds(500),
};
var processor = new RecordingProcessor(new WebJobsBlobCheckpointStore(container), Positive("CHECKPOINT_EVERY"),
    settings["CONSUMER_GROUP"], settings["EVENTHUBS_CONNECTION_STRING"], settings["HUB"], options);

// Runs until SIGTERM, then stops processing, which releases the partitions.
var stop = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
using var sigterm = PosixSignalRegistration.Create(PosixSignal.SIGTERM, context =>
{
    context.Cancel = true;
    stop.TrySetResult();
});
await processor.StartProcessingAsync();
Console.Out.WriteLine($"started {processor.Identifier} {processor.FullyQualifiedNamespace}");
await stop.Task;
await processor.StopProcessingAsync();
