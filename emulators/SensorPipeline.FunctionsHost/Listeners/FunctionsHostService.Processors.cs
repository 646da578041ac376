using Azure;
using Azure.Storage.Blobs;
using SensorPipeline.FunctionsHost.Config;
using SensorPipeline.FunctionsHost.Handler;
using SensorPipeline.FunctionsHost.Hubs;
using SensorPipeline.FunctionsHost.Invocation;
using SensorPipeline.FunctionsHost.Processing;

namespace SensorPipeline.FunctionsHost.Listeners;

internal sealed partial class FunctionsHostService
{
    /// <summary>The blob store of the app's <c>AzureWebJobsStorage</c> and the checkpoints this host last saw in it.</summary>
    private sealed record Processing(WebJobsBlobCheckpointStore Store, BlobCheckpoints Checkpoints);

    private Processing? _processing;
    private IEventHubsGateway? _gateway;

    /// <summary>The gateway this host opened itself (no in-process namespace registered); disposed at stop.</summary>
    private SdkEventHubsGateway? _ownGateway;

    private Uri? _endpoint;

    /// <summary>Opens the checkpoint container of <c>AzureWebJobsStorage</c> (created when missing, as the extension
    /// does): a connection string, or <c>AzureWebJobsStorage__blobServiceUri</c> / <c>__accountName</c> with a
    /// Microsoft Entra sign-in, as the Functions host reads it. A missing setting or an unreachable account stops
    /// start-up naming the setting.</summary>
    private static async Task<Processing> OpenStorageAsync(FunctionApp app, CancellationToken cancellationToken)
    {
        var settingsFile = Path.Combine(app.AppRoot, "local.settings.json");
        var resolver = new SettingResolver(app.Values);
        var connection = resolver.Get(ProcessorSettings.StorageSetting);
        var serviceUri = resolver.Get(ProcessorSettings.StorageSetting + "__blobServiceUri")
            ?? (resolver.Get(ProcessorSettings.StorageSetting + "__accountName") is { Length: > 0 } account ? $"https://{account}.blob.core.windows.net" : null);
        if (string.IsNullOrEmpty(connection) && string.IsNullOrEmpty(serviceUri))
        {
            throw new FunctionAppConfigurationException(settingsFile, $"Values.{ProcessorSettings.StorageSetting}",
                "is not set in local.settings.json Values or the environment (nor __blobServiceUri / __accountName): the Event Hubs trigger keeps ownership and checkpoints in this Storage account (locally azurite, which ./pipeline up starts)");
        }

        try
        {
            var container = string.IsNullOrEmpty(connection)
                ? new BlobContainerClient(new Uri(serviceUri!.TrimEnd('/') + "/" + WebJobsBlobCheckpointStore.ContainerName), new Azure.Identity.DefaultAzureCredential())
                : new BlobContainerClient(connection, WebJobsBlobCheckpointStore.ContainerName);
            await container.CreateIfNotExistsAsync(cancellationToken: cancellationToken);
            return new Processing(new WebJobsBlobCheckpointStore(container), new BlobCheckpoints());
        }
        catch (Exception e) when (e is RequestFailedException or FormatException or ArgumentException or AggregateException or Azure.Identity.AuthenticationFailedException)
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
            var processor = FunctionProcessor.Create(processorSettings, function, new ProcessorRuntime(app.Host, _gateway!, client, generation, time, _logger));
            running.Add(RunProcessorAsync(processor, function.Definition.Name, generation));
        }

        return running;
    }

    /// <summary>Without an in-process namespace (an instance process, or a real namespace): the hubs over AMQP through
    /// the first trigger's connection setting (every Event Hubs binding of the app uses that one namespace), every hub
    /// the app's bindings name.</summary>
    private async Task<IEventHubsGateway> ConnectGatewayAsync(FunctionApp app, FunctionsHostOptions settings, CancellationToken cancellationToken)
    {
        var endpoint = !settings.ExternalNamespace && endpoints.FirstOrDefault() is { } own ? await own.GetAsync(cancellationToken) : null;
        var connection = HubConnection.Resolve(app, app.Functions[0].Trigger.Connection, endpoint);
        var hubs = app.Functions.Select(f => f.Trigger.EventHubName).Concat(app.Functions.SelectMany(f => f.Outputs.Select(o => o.EventHubName)))
            .Distinct(StringComparer.OrdinalIgnoreCase)
            .ToDictionary(h => h, h => (IReadOnlyList<string>)app.Functions.Where(f => string.Equals(f.Trigger.EventHubName, h, StringComparison.OrdinalIgnoreCase)).Select(f => f.Trigger.ConsumerGroup).ToList(), StringComparer.OrdinalIgnoreCase);
        _ownGateway = await SdkEventHubsGateway.ConnectAsync(connection, hubs, cancellationToken);
        return _ownGateway;
    }

    /// <summary>An observing host's view of the processors' blobs.</summary>
    private BlobObservation Observation(FunctionApp app, FunctionsHostOptions settings)
    {
        var processing = _processing!;
        return new BlobObservation(processing.Store, processing.Checkpoints, async cancellationToken =>
        {
            var endpoint = !settings.ExternalNamespace && endpoints.FirstOrDefault() is { } own ? await own.GetAsync(cancellationToken) : null;
            return HubConnection.Resolve(app, app.Functions[0].Trigger.Connection, endpoint).FullyQualifiedNamespace;
        });
    }

    private async Task RunProcessorAsync(FunctionProcessor processor, string function, Generation generation)
    {
        try
        {
            await processor.StartProcessingAsync(generation.Stopping);
        }
        catch (Exception ex) when (generation.Stopping.IsCancellationRequested)
        {
            // The host began stopping while the processor started: its start ends with the stop, however it ended
            // (cancelled, or its connection refused once devhost's own endpoint had closed) — part of the stop, not
            // a failure of it.
            FunctionsHostLog.ProcessorStartAbandoned(_logger, ex, function);
            return;
        }
        catch (Exception ex)
        {
            // The processor could not start (Storage or Event Hubs unreachable): a new generation tries again after
            // the restart delay, as the host restarts itself when a listener fails to start.
            FunctionsHostLog.ProcessorCrashed(_logger, ex, function);
            generation.ProcessorCrashed();
            return;
        }

        var ended = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        await using (generation.Token.Register(() => ended.TrySetResult()))
        {
            await ended.Task;
        }

        await processor.StopProcessingAsync(CancellationToken.None);
    }
}
