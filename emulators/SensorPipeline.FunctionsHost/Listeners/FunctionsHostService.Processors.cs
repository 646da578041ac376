using Azure;
using Azure.Storage.Blobs;
using SensorPipeline.FunctionsHost.Config;
using SensorPipeline.FunctionsHost.Handler;
using SensorPipeline.FunctionsHost.Invocation;
using SensorPipeline.FunctionsHost.Processing;

namespace SensorPipeline.FunctionsHost.Listeners;

internal sealed partial class FunctionsHostService
{
    /// <summary>The blob store and the checkpoints seen, when the app has an <c>AzureWebJobsStorage</c> setting: then
    /// each function consumes with the SDK's processor; null: with the partition listeners.</summary>
    private sealed record Processing(WebJobsBlobCheckpointStore Store, BlobCheckpoints Checkpoints);

    private Processing? _processing;
    private Uri? _endpoint;

    /// <summary>Opens the checkpoint container named by <c>AzureWebJobsStorage</c> (created when missing, as the
    /// extension does); null when the setting is absent. An unreachable account stops start-up naming the setting.</summary>
    private static async Task<Processing?> OpenStorageAsync(FunctionApp app, CancellationToken cancellationToken)
    {
        if (new SettingResolver(app.Values).Get(ProcessorSettings.StorageSetting) is not { Length: > 0 } connection)
        {
            return null;
        }

        var settingsFile = Path.Combine(app.AppRoot, "local.settings.json");
        try
        {
            var container = new BlobContainerClient(connection, WebJobsBlobCheckpointStore.ContainerName);
            await container.CreateIfNotExistsAsync(cancellationToken: cancellationToken);
            return new Processing(new WebJobsBlobCheckpointStore(container), new BlobCheckpoints());
        }
        catch (Exception e) when (e is RequestFailedException or FormatException or ArgumentException or AggregateException)
        {
            throw new FunctionAppConfigurationException(settingsFile, $"Values.{ProcessorSettings.StorageSetting}", "cannot open the checkpoint container: " + e.Message, e);
        }
    }

    /// <summary>One processor per function for this generation: started, then stopped when the generation ends
    /// (a graceful stop gives the partitions up, so another instance claims them without waiting for expiry).</summary>
    private List<Task> StartProcessors(FunctionApp app, FunctionsHostOptions settings, HandlerClient client, Generation generation)
    {
        var processing = _processing!;
        var running = new List<Task>();
        foreach (var function in state.Functions)
        {
            var processorSettings = ProcessorSettings.Create(app, function.Definition, settings, _endpoint, processing.Store, processing.Checkpoints);
            var processor = new FunctionProcessor(processorSettings, function, app.Host, gateway, client, generation, time, _logger);
            running.Add(RunProcessorAsync(processor, generation));
        }

        return running;
    }

    /// <summary>An observing host's view of the processors' blobs; null without storage.</summary>
    private BlobObservation? Observation(FunctionApp app, FunctionsHostOptions settings)
    {
        if (_processing is not { } processing || app.Functions.Count == 0)
        {
            return null;
        }

        return new BlobObservation(processing.Store, processing.Checkpoints, async cancellationToken =>
        {
            var endpoint = endpoints.FirstOrDefault() is { } own ? await own.GetAsync(cancellationToken) : null;
            return ProcessorSettings.Create(app, app.Functions[0], settings, endpoint, processing.Store, processing.Checkpoints).ConnectionString;
        });
    }

    private static async Task RunProcessorAsync(FunctionProcessor processor, Generation generation)
    {
        await processor.StartProcessingAsync(generation.Stopping);
        var ended = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        await using (generation.Token.Register(() => ended.TrySetResult()))
        {
            await ended.Task;
        }

        await processor.StopProcessingAsync(CancellationToken.None);
    }
}
