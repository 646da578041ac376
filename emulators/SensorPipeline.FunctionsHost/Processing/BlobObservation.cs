using Azure.Messaging.EventHubs;
using SensorPipeline.FunctionsHost.Checkpoints;
using SensorPipeline.FunctionsHost.Status;

namespace SensorPipeline.FunctionsHost.Processing;

/// <summary>What an observing host (the devhost serving the hubs to instance processes) reads of the processors'
/// blobs: per function, one listing of its consumer group's checkpoints and one of its ownership records.</summary>
internal sealed class BlobObservation(WebJobsBlobCheckpointStore store, BlobCheckpoints checkpoints, Func<CancellationToken, Task<string>> fullyQualifiedNamespace)
{
    private string? _namespace;

    public async Task RefreshAsync(FunctionState function, CancellationToken cancellationToken)
    {
        _namespace ??= await fullyQualifiedNamespace(cancellationToken);
        var trigger = function.Definition.Trigger;
        foreach (var checkpoint in await store.ListCheckpointsAsync(_namespace, trigger.EventHubName, trigger.ConsumerGroup, cancellationToken))
        {
            checkpoints.Record(new CheckpointKey(trigger.EventHubName, trigger.ConsumerGroup, checkpoint.PartitionId), checkpoint);
        }

        var records = await store.ListOwnershipAsync(_namespace, trigger.EventHubName, trigger.ConsumerGroup, cancellationToken);
        function.Owned.Set([], records.Select(r => new PartitionOwnership(r.PartitionId, r.OwnerIdentifier ?? "", r.LastModifiedTime, 0)).ToList());
    }
}
