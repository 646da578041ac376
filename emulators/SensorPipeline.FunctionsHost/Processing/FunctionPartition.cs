using Azure.Messaging.EventHubs.Primitives;
using SensorPipeline.FunctionsHost.Hubs;
using SensorPipeline.FunctionsHost.Invocation;

namespace SensorPipeline.FunctionsHost.Processing;

/// <summary>One partition a <see cref="FunctionProcessor"/> owns, with what the extension's PartitionProcessor keeps
/// per partition: the batches since the last checkpoint, the last event processed, the events held while a batch of
/// minEventBatchSize builds up, and whether the first invocation has happened (its wait is shortened).</summary>
internal sealed class FunctionPartition : EventProcessorPartition
{
    /// <summary>Created when the partition is initialized, disposed when its processing stops.</summary>
    public BatchInvoker? Invoker { get; set; }

    public int BatchesSinceCheckpoint { get; set; }

    /// <summary>The last event of the last batch that finished, for the checkpoint at a graceful close.</summary>
    public ReceivedEvent? LastProcessed { get; set; }

    /// <summary>The sequence number the next event should have (a later one is a retention gap); null until known.</summary>
    public long? Expected { get; set; }

    /// <summary>Events held until minEventBatchSize of them are there or maxWaitTime passes.</summary>
    public List<ReceivedEvent> Held { get; } = [];

    /// <summary>When the oldest held event was received.</summary>
    public DateTimeOffset HeldSince { get; set; }

    public bool FirstInvocation { get; set; } = true;

    /// <summary>When the checkpoint read at initialization was written (null: none).</summary>
    public DateTimeOffset? CheckpointWrittenAt { get; set; }
}
