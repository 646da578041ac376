using Azure.Core;
using Azure.Messaging.EventHubs;
using Azure.Messaging.EventHubs.Primitives;
using Azure.Messaging.EventHubs.Processor;
using Microsoft.Extensions.Logging;
using SensorPipeline.FunctionsHost.Config;
using SensorPipeline.FunctionsHost.Hubs;
using SensorPipeline.FunctionsHost.Invocation;
using SensorPipeline.FunctionsHost.Listeners;
using SensorPipeline.FunctionsHost.Status;

namespace SensorPipeline.FunctionsHost.Processing;

/// <summary>One function's consumer for one handler generation: the SDK's own event processor (claiming, load
/// balancing, expiry, owner-level stealing, reading over AMQP) with ownership and checkpoints as blobs in
/// AzureWebJobsStorage, as the Functions extension's EventProcessorHost is; the extension's batch rules
/// (EventHubListener.PartitionProcessor) are applied on top in <see cref="OnProcessingEventBatchAsync"/>.</summary>
internal sealed partial class FunctionProcessor : PluggableCheckpointStoreEventProcessor<FunctionPartition>
{
    private readonly ProcessorSettings _settings;
    private readonly FunctionState _function;
    private readonly HostSettings _host;
    private readonly IEventHubsGateway _gateway;
    private readonly HandlerClient _client;
    private readonly Generation _generation;
    private readonly TimeProvider _time;
    private readonly ILogger _logger;
    private readonly FunctionDefinition _definition;

    /// <summary>With a connection string (SAS; devhost's endpoint with <c>UseDevelopmentEmulator=true</c>).</summary>
    private FunctionProcessor(ProcessorSettings settings, FunctionState function, ProcessorRuntime runtime, string connectionString)
        : base(settings.Store, runtime.Host.EventHubs.MaxEventBatchSize, function.Definition.Trigger.ConsumerGroup, connectionString,
            function.Definition.Trigger.EventHubName, settings.Options)
    {
        (_settings, _function, _definition) = (settings, function, function.Definition);
        (_host, _gateway, _client, _generation, _time, _logger) = runtime;
    }

    /// <summary>With a namespace and a Microsoft Entra credential.</summary>
    private FunctionProcessor(ProcessorSettings settings, FunctionState function, ProcessorRuntime runtime, string fullyQualifiedNamespace, TokenCredential credential)
        : base(settings.Store, runtime.Host.EventHubs.MaxEventBatchSize, function.Definition.Trigger.ConsumerGroup, fullyQualifiedNamespace,
            function.Definition.Trigger.EventHubName, credential, settings.Options)
    {
        (_settings, _function, _definition) = (settings, function, function.Definition);
        (_host, _gateway, _client, _generation, _time, _logger) = runtime;
    }

    /// <summary>The processor of <paramref name="function"/> for one generation, over the trigger's connection.</summary>
    public static FunctionProcessor Create(ProcessorSettings settings, FunctionState function, ProcessorRuntime runtime) =>
        settings.Connection.ConnectionString is { } connectionString
            ? new FunctionProcessor(settings, function, runtime, connectionString)
            : new FunctionProcessor(settings, function, runtime, settings.Connection.FullyQualifiedNamespace, settings.Connection.Credential!);


    protected override async Task OnInitializingPartitionAsync(FunctionPartition partition, CancellationToken cancellationToken)
    {
        partition.Invoker = new BatchInvoker(_function, partition.PartitionId, _host, _gateway, _client, _time, _logger);
        var stored = await _settings.Store.ReadCheckpointAsync(FullyQualifiedNamespace, EventHubName, ConsumerGroup, partition.PartitionId, cancellationToken);
        partition.CheckpointWrittenAt = stored?.LastModified;
        partition.Expected = stored is null ? null : stored.SequenceNumber + 1;
        if (stored is not null)
        {
            _settings.Checkpoints.Record(new(EventHubName, ConsumerGroup, partition.PartitionId), stored);
        }

        _function.Owned.Add(partition.PartitionId);
        FunctionsHostLog.ListenerStarted(_logger, _definition.Name, partition.PartitionId, partition.Expected ?? -1, stored is not null ? "checkpoint" : _host.EventHubs.InitialOffsetType.ToString());
    }

    protected override async Task OnPartitionProcessingStoppedAsync(FunctionPartition partition, ProcessingStoppedReason reason, CancellationToken cancellationToken)
    {
        try
        {
            // As the extension's CloseAsync: on a graceful stop (not a loss of ownership), what finished since the last
            // checkpoint is checkpointed, so a stale checkpoint does not hold scale-in back. Never during a restart.
            if (reason == ProcessingStoppedReason.Shutdown && partition.BatchesSinceCheckpoint > 0 && partition.LastProcessed is { } last && !_generation.Token.IsCancellationRequested)
            {
                await CheckpointAsync(partition, last, cancellationToken);
            }
        }
        finally
        {
            partition.Invoker?.Dispose();
            partition.Held.Clear();
            _function.Owned.Remove(partition.PartitionId);
        }
    }

    protected override async Task<IEnumerable<EventProcessorPartitionOwnership>> ListOwnershipAsync(CancellationToken cancellationToken)
    {
        var records = (await base.ListOwnershipAsync(cancellationToken)).ToList();
        _function.Owned.Publish(records.Select(r => new PartitionOwnership(r.PartitionId, r.OwnerIdentifier ?? "", r.LastModifiedTime, 0)).ToList());
        return records;
    }

    protected override Task OnProcessingErrorAsync(Exception exception, FunctionPartition partition, string operationDescription, CancellationToken cancellationToken)
    {
        FunctionsHostLog.ProcessorError(_logger, exception, _definition.Name, partition?.PartitionId ?? "-", operationDescription);
        return Task.CompletedTask;
    }

    /// <summary>One batch the SDK read. With minEventBatchSize &gt; 1 events are held until there are that many or
    /// maxWaitTime passed (the processor calls with an empty batch when its wait ends, which serves as the
    /// extension's cached-events timer). Then one invocation with its retries, and a checkpoint every
    /// batchCheckpointFrequency batches, whether the _function succeeded or not, unless the partition was lost or the
    /// _generation ended meanwhile. <paramref name="cancellationToken"/> is the SDK's signal that ownership was lost or
    /// the processor stops.</summary>
    protected override async Task OnProcessingEventBatchAsync(IEnumerable<EventData> events, FunctionPartition partition, CancellationToken cancellationToken)
    {
        var received = Convert(events);
        if (received.Count > 0)
        {
            NoteRetentionGap(partition, received[0].SequenceNumber);
            partition.Expected = received[^1].SequenceNumber + 1;
        }

        var batch = TakeBatch(partition, received);
        if (batch.Count == 0)
        {
            return;
        }

        await _function.Pause.WaitAsync(cancellationToken);
        partition.FirstInvocation = false;
        partition.BatchesSinceCheckpoint++;
        var checkpointAfter = partition.BatchesSinceCheckpoint >= _host.EventHubs.BatchCheckpointFrequency;
        var finished = await partition.Invoker!.InvokeWithRetriesAsync(batch, checkpointAfter, _generation, cancellationToken);
        if (!finished)
        {
            return;
        }

        partition.LastProcessed = batch[^1];

        // Each token checked on its own, as the extension does: a linked token is not cancelled atomically.
        if (checkpointAfter && _generation.MayCheckpoint && !cancellationToken.IsCancellationRequested)
        {
            await CheckpointAsync(partition, batch[^1], cancellationToken);
        }
    }

    private async Task CheckpointAsync(FunctionPartition partition, ReceivedEvent last, CancellationToken cancellationToken)
    {
        var position = new CheckpointPosition(last.Offset.ToString(System.Globalization.CultureInfo.InvariantCulture), last.SequenceNumber);
        await UpdateCheckpointAsync(partition.PartitionId, position, cancellationToken);
        partition.BatchesSinceCheckpoint = 0;
        _settings.Checkpoints.Record(new(EventHubName, ConsumerGroup, partition.PartitionId), new StoredCheckpoint(partition.PartitionId, last.SequenceNumber, last.Offset, _time.GetUtcNow()), written: true);
    }

    /// <summary>The batch to invoke now: everything received when minEventBatchSize is 1; else the held events once
    /// there are minEventBatchSize of them (at most maxEventBatchSize, the rest stays held) or once maxWaitTime has
    /// passed since the first was held (the first invocation after a start waits only what remains of maxWaitTime
    /// since the checkpoint was written, and nothing without one, as GetAdjustedMaxWaitTime does).</summary>
    private List<ReceivedEvent> TakeBatch(FunctionPartition partition, List<ReceivedEvent> received)
    {
        var eventHubs = _host.EventHubs;
        if (eventHubs.MinEventBatchSize <= 1)
        {
            return received;
        }

        var now = _time.GetUtcNow();
        if (partition.Held.Count == 0)
        {
            partition.HeldSince = now;
        }

        partition.Held.AddRange(received);
        if (partition.Held.Count == 0)
        {
            return [];
        }

        var wait = eventHubs.MaxWaitTime;
        if (partition.FirstInvocation)
        {
            var sinceCheckpoint = partition.CheckpointWrittenAt is { } written ? now - written : TimeSpan.MaxValue;
            wait = sinceCheckpoint >= eventHubs.MaxWaitTime ? TimeSpan.Zero : eventHubs.MaxWaitTime - sinceCheckpoint;
        }

        if (partition.Held.Count < eventHubs.MinEventBatchSize && now - partition.HeldSince < wait)
        {
            return [];
        }

        var count = Math.Min(partition.Held.Count, eventHubs.MaxEventBatchSize);
        var batch = partition.Held.GetRange(0, count);
        partition.Held.RemoveRange(0, count);
        partition.HeldSince = now;
        return batch;
    }

    /// <summary>A batch that starts after the next expected event means retention removed the events in between
    /// before this consumer group read them. Event Hubs says nothing; here it is logged and counted.</summary>
    private void NoteRetentionGap(FunctionPartition partition, long found)
    {
        if (partition.Expected is not { } expected || found <= expected)
        {
            return;
        }

        var lost = _function.Health(partition.PartitionId).CountRetentionGap(expected, found - 1);
        if (lost > 0)
        {
            FunctionsHostLog.RetentionGap(_logger, _definition.Name, partition.PartitionId, ConsumerGroup, found - lost, found - 1, lost);
        }
    }

    /// <summary>The SDK's events as the invocation and the stall detector take them.</summary>
    internal static List<ReceivedEvent> Convert(IEnumerable<EventData> events)
    {
        var received = new List<ReceivedEvent>();
        foreach (var e in events)
        {
            var offset = long.TryParse(e.OffsetString, System.Globalization.NumberStyles.Integer, System.Globalization.CultureInfo.InvariantCulture, out var parsed) ? parsed : -1;
            var properties = new Dictionary<string, object?>(e.Properties.Count, StringComparer.Ordinal);
            foreach (var (key, value) in e.Properties)
            {
                properties[key] = value;
            }

            received.Add(new ReceivedEvent(e.SequenceNumber, offset, e.EnqueuedTime, e.PartitionKey, e.EventBody.ToMemory(), properties));
        }

        return received;
    }
}

/// <summary>What a <see cref="FunctionProcessor"/> invokes and checkpoints with, for one handler generation.</summary>
internal sealed record ProcessorRuntime(HostSettings Host, IEventHubsGateway Gateway, HandlerClient Client, Generation Generation, TimeProvider Time, ILogger Logger);
