namespace SensorPipeline.EventHubs;

/// <summary>One event to append. <see cref="EventHubsNamespace.AppendAsync"/> copies the body and properties,
/// so the caller may reuse its buffers once the call returns.</summary>
/// <param name="Body">The event body, uninterpreted bytes.</param>
/// <param name="PartitionKey">Routes the batch to a partition by a stable hash when no partition id is given.</param>
/// <param name="Properties">Application properties: null, string, bool, int, long, double, DateTimeOffset, Guid or byte[].</param>
public sealed record EventToAppend(ReadOnlyMemory<byte> Body, string? PartitionKey, IReadOnlyDictionary<string, object?>? Properties);
