namespace SensorPipeline.EventHubs;

/// <summary>One event to append. <see cref="EventHubsNamespace.AppendAsync"/> copies the body and properties,
/// so the caller may reuse its buffers once the call returns.</summary>
/// <param name="Body">The event body, uninterpreted bytes.</param>
/// <param name="PartitionKey">Routes the batch to a partition by a stable hash when no partition id is given.</param>
/// <param name="Properties">Application properties: null, string, bool, int, long, double, DateTimeOffset, Guid or byte[].</param>
public sealed record EventToAppend(ReadOnlyMemory<byte> Body, string? PartitionKey, IReadOnlyDictionary<string, object?>? Properties)
{
    /// <summary>What an AMQP sender gave beyond body, key and application properties (the body kind and the message's
    /// properties section: message-id, correlation-id, content-type, subject, …), encoded by the AMQP endpoint and
    /// stored opaque, so a reader over AMQP gets the message back as sent. Empty for REST sends (a data body, no
    /// message properties). Counts against the 1 MiB limit.</summary>
    public ReadOnlyMemory<byte> AmqpEnvelope { get; init; }
}
