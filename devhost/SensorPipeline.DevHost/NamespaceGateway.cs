using SensorPipeline.EventHubs;

namespace SensorPipeline.DevHost;

/// <summary>The emulator's <see cref="EventHubsNamespace"/> seen through <see cref="IEventHubsGateway"/>. It lives in the
/// devhost program, which wires both, so the local Functions host library never references the emulator.</summary>
internal sealed class NamespaceGateway(EventHubsNamespace eventHubs) : IEventHubsGateway
{
    public IReadOnlyList<HubInfo> Hubs { get; } =
        eventHubs.Hubs.Select(h => new HubInfo(h.Name, h.PartitionCount, h.ConsumerGroups, eventHubs.Options.RetentionPeriod)).ToArray();

    public async ValueTask<IReadOnlyList<ReceivedEvent>> ReadAsync(string hub, string partitionId, long fromSequenceNumber, int minEvents, int maxEvents, TimeSpan maxWait, CancellationToken cancellationToken)
    {
        var stored = await eventHubs.ReadAsync(hub, partitionId, fromSequenceNumber, minEvents, maxEvents, maxWait, cancellationToken);
        if (stored.Count == 0)
        {
            return [];
        }

        var events = new ReceivedEvent[stored.Count];
        for (var i = 0; i < events.Length; i++)
        {
            var e = stored[i];
            events[i] = new ReceivedEvent(e.SequenceNumber, e.Offset, e.EnqueuedTime, e.PartitionKey, e.Body, e.Properties);
        }

        return events;
    }

    public async ValueTask AppendAsync(string hub, IReadOnlyList<ReadOnlyMemory<byte>> bodies, CancellationToken cancellationToken)
    {
        var events = new EventToAppend[bodies.Count];
        for (var i = 0; i < events.Length; i++)
        {
            events[i] = new EventToAppend(bodies[i], null, null);
        }

        // No partition id and no partition key: the namespace picks a partition round-robin, as the service does for
        // a batch sent by the output binding's collector.
        _ = await eventHubs.AppendAsync(hub, null, events, cancellationToken);
    }

    public PartitionBounds GetBounds(string hub, string partitionId)
    {
        var properties = eventHubs.GetPartitionProperties(hub, partitionId);
        return new PartitionBounds(properties.BeginningSequenceNumber, properties.LastEnqueuedSequenceNumber);
    }
}
