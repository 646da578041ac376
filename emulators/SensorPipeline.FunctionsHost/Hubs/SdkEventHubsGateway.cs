using System.Collections.Concurrent;
using Azure.Messaging.EventHubs;
using Azure.Messaging.EventHubs.Consumer;
using Azure.Messaging.EventHubs.Primitives;
using Azure.Messaging.EventHubs.Producer;
using SensorPipeline.FunctionsHost.Processing;

namespace SensorPipeline.FunctionsHost.Hubs;

/// <summary>The hubs through the Event Hubs SDK over AMQP, for a host that does not run inside the emulator's process:
/// an instance process of devhost, or the host against a real namespace. Hubs and partition counts come from
/// <c>$management</c> at start; bounds from <c>GetPartitionPropertiesAsync</c> (refreshed every
/// <see cref="BoundsRefresh"/> for the synchronous status snapshot); an output binding's batch goes through an
/// <see cref="EventHubProducerClient"/> with no partition, so the service picks one, as the extension's collector
/// does. One producer per hub, created once. Retention is unknown over AMQP, so the stall detector judges by
/// checkpoint progress alone.</summary>
internal sealed class SdkEventHubsGateway : IEventHubsGateway, IAsyncDisposable
{
    private static readonly TimeSpan BoundsRefresh = TimeSpan.FromSeconds(1);
    private readonly HubConnection _connection;
    private readonly ConcurrentDictionary<string, EventHubProducerClient> _producers = new(StringComparer.OrdinalIgnoreCase);
    private readonly ConcurrentDictionary<(string Hub, string Partition), PartitionBounds> _bounds = new();
    private readonly CancellationTokenSource _stopping = new();
    private Task _refresher = Task.CompletedTask;

    private SdkEventHubsGateway(HubConnection connection) => _connection = connection;

    public IReadOnlyList<HubInfo> Hubs { get; private set; } = [];

    /// <summary>Reads the properties of <paramref name="hubs"/> and their partitions' bounds, and tries each consumer
    /// group the app reads a hub with (a receiver on its first partition). A hub or consumer group the namespace lacks
    /// is left out of <see cref="Hubs"/>, so the app's validation names it and the function.json that wants it.</summary>
    public static async Task<SdkEventHubsGateway> ConnectAsync(HubConnection connection, IReadOnlyDictionary<string, IReadOnlyList<string>> hubs, CancellationToken cancellationToken)
    {
        var gateway = new SdkEventHubsGateway(connection);
        try
        {
            var found = new List<HubInfo>(hubs.Count);
            foreach (var (hub, consumerGroups) in hubs)
            {
                EventHubProperties properties;
                try
                {
                    properties = await gateway.Producer(hub).GetEventHubPropertiesAsync(cancellationToken);
                }
                catch (EventHubsException e) when (e.Reason == EventHubsException.FailureReason.ResourceNotFound)
                {
                    continue;
                }

                var existing = new List<string>(consumerGroups.Count);
                foreach (var group in consumerGroups)
                {
                    if (await gateway.ConsumerGroupExistsAsync(properties.Name, group, properties.PartitionIds[0], cancellationToken))
                    {
                        existing.Add(group);
                    }
                }

                found.Add(new HubInfo(properties.Name, properties.PartitionIds.Length, existing));
            }

            gateway.Hubs = found;
            await gateway.RefreshBoundsAsync(cancellationToken);
            gateway._refresher = gateway.RefreshBoundsLoopAsync(gateway._stopping.Token);
            return gateway;
        }
        catch
        {
            await gateway.DisposeAsync();
            throw;
        }
    }

    /// <summary>Event Hubs lists consumer groups only through Azure Resource Manager; over AMQP a receiver on a missing
    /// one is refused as not found. The receiver (no owner level) reads from the end for a moment and closes: it moves
    /// no checkpoint and takes nothing from a processor.</summary>
    private async Task<bool> ConsumerGroupExistsAsync(string hub, string consumerGroup, string partitionId, CancellationToken cancellationToken)
    {
        await using var receiver = _connection.CreateReceiver(consumerGroup, partitionId, EventPosition.Latest, hub);
        try
        {
            await receiver.ReceiveBatchAsync(1, TimeSpan.FromMilliseconds(10), cancellationToken);
            return true;
        }
        catch (EventHubsException e) when (e.Reason == EventHubsException.FailureReason.ResourceNotFound)
        {
            return false;
        }
        catch (EventHubsException e) when (e.Reason is EventHubsException.FailureReason.ConsumerDisconnected or EventHubsException.FailureReason.QuotaExceeded)
        {
            // Another instance's processor holds the partition with an owner level, or it has its five readers: the
            // group is there.
            return true;
        }
    }

    public async ValueTask<IReadOnlyList<ReceivedEvent>> ReadAsync(string hub, string partitionId, long fromSequenceNumber, int minEvents, int maxEvents, TimeSpan maxWait, CancellationToken cancellationToken)
    {
        // A receiver of its own on the default consumer group: a read here moves no function's checkpoint.
        await using var receiver = _connection.CreateReceiver(EventHubConsumerClient.DefaultConsumerGroupName, partitionId,
            EventPosition.FromSequenceNumber(Math.Max(0, fromSequenceNumber)), hub);
        return FunctionProcessor.Convert(await receiver.ReceiveBatchAsync(maxEvents, maxWait, cancellationToken));
    }

    public async ValueTask AppendAsync(string hub, IReadOnlyList<ReadOnlyMemory<byte>> bodies, CancellationToken cancellationToken)
    {
        var events = new EventData[bodies.Count];
        for (var i = 0; i < events.Length; i++)
        {
            events[i] = new EventData(bodies[i]);
        }

        await Producer(hub).SendAsync(events, cancellationToken);
    }

    public PartitionBounds GetBounds(string hub, string partitionId) =>
        _bounds.TryGetValue((hub.ToLowerInvariant(), partitionId), out var bounds) ? bounds : new PartitionBounds(0, -1);

    public async ValueTask DisposeAsync()
    {
        await _stopping.CancelAsync();
        try
        {
            await _refresher;
        }
        catch (OperationCanceledException)
        {
            // Stopped.
        }

        foreach (var producer in _producers.Values)
        {
            await producer.DisposeAsync();
        }

        _stopping.Dispose();
    }

    private EventHubProducerClient Producer(string hub) => _producers.GetOrAdd(hub, _connection.CreateProducer);

    private async Task RefreshBoundsLoopAsync(CancellationToken cancellationToken)
    {
        while (!cancellationToken.IsCancellationRequested)
        {
            await Task.Delay(BoundsRefresh, cancellationToken);
            try
            {
                await RefreshBoundsAsync(cancellationToken);
            }
            catch (EventHubsException)
            {
                // The namespace is restarting or unreachable: status keeps the last bounds; the processors report
                // their own failures.
            }
        }
    }

    private async Task RefreshBoundsAsync(CancellationToken cancellationToken)
    {
        foreach (var hub in Hubs)
        {
            var producer = Producer(hub.Name);
            foreach (var partitionId in hub.PartitionIds)
            {
                var properties = await producer.GetPartitionPropertiesAsync(partitionId, cancellationToken);
                _bounds[(hub.Name.ToLowerInvariant(), partitionId)] = new PartitionBounds(
                    properties.IsEmpty ? properties.LastEnqueuedSequenceNumber + 1 : properties.BeginningSequenceNumber, properties.LastEnqueuedSequenceNumber);
            }
        }
    }
}
