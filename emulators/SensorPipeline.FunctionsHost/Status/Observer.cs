using Microsoft.Extensions.Logging;
using SensorPipeline.FunctionsHost.Checkpoints;
using SensorPipeline.FunctionsHost.Config;
using SensorPipeline.FunctionsHost.Hubs;
using SensorPipeline.FunctionsHost.Ownership;

namespace SensorPipeline.FunctionsHost.Status;

/// <summary>The status side of a host that runs no listeners (<see cref="FunctionsHostOptions.ObserveOnly"/>): every
/// ObserveInterval it re-reads each partition's checkpoint and each consumer group's ownership records from the data
/// directory the instance processes write (or from their blobs, when they run the SDK's processor), so <c>/status/functions</c> shows their lag, owners and ownership
/// changes, and samples them into the bounded ownership history the dashboard draws.</summary>
internal sealed class Observer(
    FunctionsHostState state,
    FileCheckpointStore checkpoints,
    IOwnershipStore ownership,
    IEventHubsGateway gateway,
    FunctionsHostOptions options,
    ILogger logger,
    Processing.BlobObservation? blobs = null)
{
    public async Task RunAsync(CancellationToken cancellationToken)
    {
        state.StartHistory(options.ObserveInterval);
        try
        {
            while (!cancellationToken.IsCancellationRequested)
            {
                try
                {
                    await RefreshAsync(cancellationToken);
                }
                catch (Exception ex) when (ex is not OperationCanceledException)
                {
                    // A torn or locked file is read again at the next interval; status shows the last good view.
                    FunctionsHostLog.ObserveFailed(logger, ex);
                }

                await Task.Delay(options.ObserveInterval, cancellationToken);
            }
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // Shutdown.
        }
    }

    public async Task RefreshAsync(CancellationToken cancellationToken)
    {
        foreach (var function in state.Functions)
        {
            if (blobs is not null)
            {
                // The instances consume with the SDK's processor: ownership and checkpoints are its blobs.
                await blobs.RefreshAsync(function, cancellationToken);
                continue;
            }

            var trigger = function.Definition.Trigger;
            foreach (var partitionId in FunctionAppLoader.Find(gateway.Hubs, trigger.EventHubName)?.PartitionIds ?? [])
            {
                await checkpoints.ReadAsync(new CheckpointKey(trigger.EventHubName, trigger.ConsumerGroup, partitionId), cancellationToken);
            }

            var records = await ownership.ListAsync(new OwnershipScope(trigger.EventHubName, trigger.ConsumerGroup), cancellationToken);
            function.Owned.Set([], records);
        }

        state.RecordOwnership();
    }
}
