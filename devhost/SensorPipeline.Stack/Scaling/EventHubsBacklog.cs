using System.Collections.Concurrent;
using Azure.Messaging.EventHubs;
using Azure.Messaging.EventHubs.Producer;
using Azure.Storage.Blobs;
using SensorPipeline.FunctionsHost.Processing;

namespace SensorPipeline.Stack.Scaling;

/// <summary>A consumer group's unprocessed events, read as the scale controller reads them (the Event Hubs extension's
/// metrics provider, <c>GetUnprocessedEventCount</c>): per partition the last enqueued sequence number from the
/// namespace's <c>$management</c> node (GetPartitionPropertiesAsync) against the checkpoint blob in
/// <c>AzureWebJobsStorage</c>. A partition with events and no checkpoint counts all of them (last enqueued + 1), as
/// a checkpoint without an offset does there; a checkpoint at or past the last enqueued event counts 0. One producer
/// client per hub (management calls only), created once.</summary>
public sealed class EventHubsBacklog(string eventHubsConnection, string storageConnection) : IAsyncDisposable
{
    private readonly ConcurrentDictionary<string, EventHubProducerClient> _clients = new(StringComparer.OrdinalIgnoreCase);
    private readonly WebJobsBlobCheckpointStore _checkpoints = new(new BlobContainerClient(storageConnection, WebJobsBlobCheckpointStore.ContainerName));

    /// <summary>The unprocessed events of <paramref name="consumerGroup"/> on <paramref name="hub"/>, and its partition
    /// count.</summary>
    public async Task<(long Unprocessed, int Partitions)> ReadAsync(string hub, string consumerGroup, CancellationToken cancellationToken)
    {
        var client = _clients.GetOrAdd(hub, h => new EventHubProducerClient(eventHubsConnection, h));
        var partitionIds = await client.GetPartitionIdsAsync(cancellationToken);
        var checkpoints = (await _checkpoints.ListCheckpointsAsync(client.FullyQualifiedNamespace, hub, consumerGroup, cancellationToken))
            .ToDictionary(c => c.PartitionId, c => c.SequenceNumber, StringComparer.Ordinal);
        long unprocessed = 0;
        foreach (var partitionId in partitionIds)
        {
            var properties = await client.GetPartitionPropertiesAsync(partitionId, cancellationToken);
            unprocessed += Unprocessed(properties, checkpoints.TryGetValue(partitionId, out var sequence) ? sequence : null);
        }

        return (unprocessed, partitionIds.Length);
    }

    /// <summary>One partition's unprocessed events given its checkpointed sequence number (null: none).</summary>
    public static long Unprocessed(PartitionProperties partition, long? checkpoint)
    {
        ArgumentNullException.ThrowIfNull(partition);
        if (partition.LastEnqueuedSequenceNumber < 0)
        {
            return 0;
        }

        if (checkpoint is not { } processed)
        {
            return partition.LastEnqueuedSequenceNumber + 1;
        }

        return Math.Max(0, partition.LastEnqueuedSequenceNumber - processed);
    }

    public async ValueTask DisposeAsync()
    {
        foreach (var client in _clients.Values)
        {
            await client.DisposeAsync();
        }
    }
}
