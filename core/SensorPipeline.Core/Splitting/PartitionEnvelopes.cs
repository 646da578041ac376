namespace SensorPipeline.Core.Splitting;

/// <summary>The envelopes of one kind bound for one partition of its hub (<see cref="DevicePartitioner"/>), in order.</summary>
/// <param name="Partition">The partition's index among the hub's partitions (0 to partition count − 1).</param>
/// <param name="Envelopes">The envelopes' <c>ForwardEnvelope</c> bytes, one event each; valid until the splitter's next split.</param>
/// <param name="Readings">Readings in them.</param>
public sealed record PartitionEnvelopes(int Partition, IReadOnlyList<ReadOnlyMemory<byte>> Envelopes, int Readings);
