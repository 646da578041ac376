using Azure.Messaging.EventHubs;
using Azure.Messaging.EventHubs.Primitives;
using Azure.Messaging.EventHubs.Processor;

namespace SensorPipeline.EventHubs.ProcessorApp;

/// <summary>
/// The SDK's own processor and load balancer over <see cref="SensorPipeline.FunctionsHost.Processing.WebJobsBlobCheckpointStore"/>, printing one line per
/// fact the failover test checks: <c>claimed P</c>, <c>released P REASON</c>, <c>event P SEQ BODY</c>, and
/// <c>checkpoint P SEQ</c> once a checkpoint is stored. It checkpoints at every event whose sequence number + 1 is a
/// multiple of <c>checkpointEvery</c> (the last such event of a batch), so the events after it — the uncheckpointed
/// tail a successor processes again — are known in advance.
/// </summary>
internal sealed class RecordingProcessor(CheckpointStore store, int checkpointEvery, string consumerGroup, string connectionString, string eventHubName, EventProcessorOptions options)
    : PluggableCheckpointStoreEventProcessor<EventProcessorPartition>(store, 100, consumerGroup, connectionString, eventHubName, options)
{
    protected override Task OnInitializingPartitionAsync(EventProcessorPartition partition, CancellationToken cancellationToken)
    {
        Print($"claimed {partition.PartitionId}");
        return Task.CompletedTask;
    }

    protected override Task OnPartitionProcessingStoppedAsync(EventProcessorPartition partition, ProcessingStoppedReason reason, CancellationToken cancellationToken)
    {
        Print($"released {partition.PartitionId} {reason}");
        return Task.CompletedTask;
    }

    protected override async Task OnProcessingEventBatchAsync(IEnumerable<EventData> events, EventProcessorPartition partition, CancellationToken cancellationToken)
    {
        EventData? checkpointAt = null;
        foreach (var e in events)
        {
            Print($"event {partition.PartitionId} {e.SequenceNumber} {e.EventBody}");
            if ((e.SequenceNumber + 1) % checkpointEvery == 0)
            {
                checkpointAt = e;
            }
        }

        if (checkpointAt is not null)
        {
            await UpdateCheckpointAsync(partition.PartitionId, CheckpointPosition.FromEvent(checkpointAt), cancellationToken);
            Print($"checkpoint {partition.PartitionId} {checkpointAt.SequenceNumber}");
        }
    }

    protected override Task OnProcessingErrorAsync(Exception exception, EventProcessorPartition partition, string operationDescription, CancellationToken cancellationToken)
    {
        Console.Error.WriteLine($"error {partition?.PartitionId ?? "-"} {operationDescription}: {exception.GetType().Name}: {exception.Message}");
        return Task.CompletedTask;
    }

    private static void Print(string line) => Console.Out.WriteLine(line);
}
